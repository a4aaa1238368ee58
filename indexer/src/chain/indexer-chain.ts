/**
 * What the indexer needs from a chain: a chain port seen through `indexerChainOver`
 * (indexer-chain-over.ts: the in-process cluster or Solana JSON-RPC + PubSub), optionally with
 * Helius webhooks as extra hints (../helius).
 *
 * The indexer never trusts a push alone: a push (`watch`) only says "look now", or hands over a
 * transaction it already has; records are written from `signaturesForProgram` walked from the
 * checkpoint, so a dropped notification (Helius drops undelivered events; a socket can close) is
 * repaired by the next pass.
 */
import type { Commitment, TransactionErrorJson } from "@cpay/sdk/chain";

/** A program transaction as the indexer decodes it (the part of getTransaction it reads). */
export interface ChainTransaction {
  readonly signature: string;
  readonly slot: bigint;
  /** Unix seconds of its block. */
  readonly blockTime: bigint;
  readonly err: TransactionErrorJson | null;
  readonly logs: readonly string[];
}

/** One entry of getSignaturesForAddress(program), newest first. */
export interface ProgramSignature {
  readonly signature: string;
  readonly slot: bigint;
  readonly err: TransactionErrorJson | null;
}

export interface SignatureState {
  readonly slot: bigint;
  readonly confirmationStatus: Commitment;
  readonly err: TransactionErrorJson | null;
}

export interface IndexerChain {
  /** The agent-policy program whose transactions are indexed. */
  readonly programId: string;
  /** The USDG mint (asset of indexed transfers). */
  readonly usdgMint: string;
  /**
   * Transactions that invoked the program, at `confirmed` commitment, newest first, like
   * getSignaturesForAddress: `until` (exclusive) bounds the walk at the checkpoint, `before`
   * (exclusive) pages back; `limit` 1..1000.
   */
  signaturesForProgram(page: {
    readonly before?: string;
    readonly until?: string;
    readonly limit: number;
  }): Promise<readonly ProgramSignature[]>;
  /** The transaction at `confirmed` commitment, or null when the chain does not have it (yet). */
  transaction(signature: string): Promise<ChainTransaction | null>;
  /** Statuses for the finality check, in order; null = the chain does not know the signature. */
  signatureStates(signatures: readonly string[]): Promise<readonly (SignatureState | null)[]>;
  /** The highest slot at `finalized` commitment. */
  finalizedSlot(): Promise<bigint>;
  /**
   * The data of an account the program owns (a hold's account, to learn its recipient), or null
   * when it does not exist (closed) or another program owns it.
   */
  programAccountData(address: string): Promise<Uint8Array | null>;
  /** The wallet that owns a token account (Token-2022 layout), or null when there is no such account. */
  tokenAccountOwner(tokenAccount: string): Promise<string | null>;
  /**
   * Live hints: `onActivity` is called when new program transactions may be visible (a slot or a
   * log notification), with the transaction when the source already carries it (Helius).
   * Returns the unsubscribe function.
   */
  watch(onActivity: (transaction?: ChainTransaction) => void): () => void;
  /** Releases sockets and timers. */
  close(): Promise<void>;
}
