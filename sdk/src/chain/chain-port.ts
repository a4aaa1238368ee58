/**
 * The chain port (DESIGN section 2): the one way the SDK, the API and the indexer reach a Solana
 * cluster. Asynchronous, because every real cluster is a network away.
 *
 * Two implementations:
 * - `connectRpcChain` (rpc-chain.ts): any Solana JSON-RPC + PubSub endpoint (the localnet process,
 *   devnet, mainnet-beta), on @solana/kit's RPC and subscription clients;
 * - `inProcessChain` (`@cpay/localnet/cluster`): the LiteSVM simulator in this process, for fast tests.
 * Code above the port cannot tell them apart, so what the tests prove in process holds over RPC.
 *
 * Commitment: a read without one is at `processed`, the newest state this client can see, so a
 * flow reads what its own landed transaction wrote. What is recorded as settled is decided at
 * `confirmed` (the indexer), never from a `processed` read.
 */
import type {
  AccountRecord,
  Commitment,
  ExecutionOutcome,
  InnerInstructionGroup,
  SignatureInfo,
  SignatureStatus,
  TransactionRecord,
} from "./chain-types";

export type { Commitment } from "./chain-types";

export interface LatestBlockhash {
  readonly blockhash: string;
  /** The last block height at which a transaction signed with it can land. */
  readonly lastValidBlockHeight: bigint;
}

/** A simulation's CPIs, when asked for (`innerInstructions`). */
export interface SimulatedCalls {
  readonly innerInstructions?: readonly InnerInstructionGroup[];
  readonly accountKeys?: readonly string[];
}

/** A landed transaction as a log subscription reports it (`logsSubscribe` on the program). */
export interface LogsNotification {
  readonly signature: string;
  readonly slot: bigint;
  readonly err: ExecutionOutcome["err"];
  readonly logs: readonly string[];
}

export interface ChainPort {
  /** The agent-policy program id deployed on this cluster. */
  readonly programId: string;
  /** The USDG Token-2022 mint (6 decimals, ConfidentialTransferMint). */
  readonly usdgMint: string;
  /** The cluster's genesis hash: tells clusters apart (the service ties its database to it). */
  readonly genesisHash: string;

  getSlot(commitment?: Commitment): Promise<bigint>;
  getBlockHeight(commitment?: Commitment): Promise<bigint>;
  getLatestBlockhash(commitment?: Commitment): Promise<LatestBlockhash>;
  isBlockhashValid(blockhash: string, commitment?: Commitment): Promise<boolean>;
  minimumBalanceForRentExemption(dataLength: number): Promise<bigint>;

  getAccount(address: string, commitment?: Commitment): Promise<AccountRecord | null>;
  /** Accounts in the order asked; null where there is none. */
  getMultipleAccounts(
    addresses: readonly string[],
    commitment?: Commitment,
  ): Promise<(AccountRecord | null)[]>;
  /** Accounts owned by `programId`. */
  getProgramAccounts(programId: string, commitment?: Commitment): Promise<AccountRecord[]>;

  /**
   * Submits a signed wire-format transaction and returns its signature. Landing is not implied: wait
   * for its status. Throws SubmissionRejected when the cluster refuses it outright (bad bytes, stale
   * blockhash, duplicate, bad signature, or, with `preflight`, a failing simulation: nothing lands).
   */
  sendTransaction(wire: Uint8Array, options?: { readonly preflight?: boolean }): Promise<string>;
  /**
   * Runs `wire` against the newest state without landing it. With `innerInstructions` the answer
   * also carries the CPIs it made, as indexes into `accountKeys` (static keys, then any others the
   * instructions named), as a landed transaction's meta does.
   */
  simulateTransaction(
    wire: Uint8Array,
    options?: {
      readonly sigVerify?: boolean;
      readonly replaceRecentBlockhash?: boolean;
      readonly innerInstructions?: boolean;
    },
  ): Promise<ExecutionOutcome & SimulatedCalls & { readonly replacementBlockhash: string | null }>;
  /** Test clusters only: lamports from the faucet; returns the transfer's signature. */
  requestAirdrop(address: string, lamports: bigint): Promise<string>;

  getSignatureStatus(signature: string): Promise<SignatureStatus | null>;
  /** In order; null where the cluster does not know the signature. Any number (paged underneath). */
  getSignatureStatuses(signatures: readonly string[]): Promise<(SignatureStatus | null)[]>;
  /** The landed transaction, or null if unknown or not yet at `commitment` (default `confirmed`). */
  getTransaction(signature: string, commitment?: Commitment): Promise<TransactionRecord | null>;
  /** Newest first, like getSignaturesForAddress (`before`/`until` exclusive, `limit` 1..1000). */
  getSignaturesForAddress(
    address: string,
    options?: {
      readonly before?: string;
      readonly until?: string;
      readonly limit?: number;
      readonly commitment?: Commitment;
    },
  ): Promise<SignatureInfo[]>;

  /**
   * Live hints (PubSub): every new slot, and every transaction that mentions `address` once it is at
   * `commitment`. A hint says "look now"; it is not the source of truth (a socket can drop).
   * Each returns its unsubscribe function; `onError` hears a subscription that failed for good.
   */
  onSlot(listener: (slot: bigint) => void, onError?: (error: unknown) => void): () => void;
  onLogs(
    address: string,
    commitment: Commitment,
    listener: (notification: LogsNotification) => void,
    onError?: (error: unknown) => void,
  ): () => void;

  /** Releases sockets and timers. */
  close(): Promise<void>;
}
