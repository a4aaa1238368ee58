/**
 * The simulator's own, synchronous face: what the LiteSVM cluster offers the code that serves it
 * (the localnet's JSON-RPC + PubSub server, the in-process adapter, program tests). Clients never
 * see it: they talk to the asynchronous chain port (../chain/chain-port.ts), which this cluster
 * implements through `inProcessChain` and which the localnet serves over RPC.
 */

import type {
  AccountRecord,
  Commitment,
  ExecutionOutcome,
  InnerInstructionGroup,
  SignatureInfo,
  SignatureStatus,
  TransactionRecord,
} from "@cpay/sdk/chain";

export * from "@cpay/sdk/chain";

/** Events the cluster pushes to subscribers (localnet PubSub, the indexer's embedded source). */
export interface ClusterEvents {
  /** A transaction landed (successfully or not) in `record.slot`. */
  transaction: (record: TransactionRecord) => void;
  /** The cluster advanced; `confirmed`/`finalized` are the highest slots at those levels. */
  slot: (update: { readonly slot: bigint; readonly confirmed: bigint; readonly finalized: bigint }) => void;
}

/**
 * Reads take an optional commitment; omitted means `processed` (the newest state, what an in-process
 * caller wants). The RPC layer passes its request's commitment (RPC's own default is `finalized`).
 */
/** A simulation's outcome, with what simulateTransaction can also answer. */
export type SimulationResult = ExecutionOutcome & {
  /** The blockhash it ran on when asked to replace the transaction's own, else null. */
  readonly replacementBlockhash: string | null;
  /** The inner instructions it executed (empty groups left out), indexes into `accountKeys`. */
  readonly innerInstructions: readonly InnerInstructionGroup[];
  /** Every key an instruction index can point at: static keys, then loaded writable, then read-only. */
  readonly accountKeys: readonly string[];
};

export interface ClusterPort {
  /** The agent-policy program id deployed on this cluster. */
  readonly programId: string;
  /** The USDG Token-2022 mint (6 decimals, ConfidentialTransferMint, auto-approve). */
  readonly usdgMint: string;
  /** Genesis hash, stable for the life of the cluster. */
  readonly genesisHash: string;

  getSlot(commitment?: Commitment): bigint;
  getBlockHeight(commitment?: Commitment): bigint;
  getLatestBlockhash(): { readonly blockhash: string; readonly lastValidBlockHeight: bigint };
  isBlockhashValid(blockhash: string): boolean;
  minimumBalanceForRentExemption(dataLength: number): bigint;

  getAccount(address: string): AccountRecord | null;
  /** Accounts owned by `programId` (for getProgramAccounts and the indexer's repair path). */
  getProgramAccounts(programId: string): AccountRecord[];

  /**
   * Executes a wire-format transaction now (it lands in the current slot) and returns its signature.
   * A transaction that executes and fails still lands (fee charged, status has `err`), as on Solana.
   * Throws SubmissionRejected when it cannot land at all (bad bytes, stale blockhash, duplicate,
   * bad signature) — and, with `preflight`, when simulation fails (nothing lands then).
   */
  sendTransaction(wire: Uint8Array, options?: { readonly preflight?: boolean }): string;
  /** Runs a transaction against current state without landing it. */
  simulateTransaction(
    wire: Uint8Array,
    options?: { readonly sigVerify?: boolean; readonly replaceRecentBlockhash?: boolean },
  ): SimulationResult;
  /**
   * Credits lamports from the faucet; returns the signature of a real System transfer. Preflighted:
   * throws SubmissionRejected (`preflight_failed`) and lands nothing when the transfer would fail
   * (e.g. less than the rent-exempt minimum to a new account).
   */
  requestAirdrop(address: string, lamports: bigint): string;

  getSignatureStatus(signature: string): SignatureStatus | null;
  /** The landed transaction, or null if unknown or not yet at `commitment`. */
  getTransaction(signature: string, commitment?: Commitment): TransactionRecord | null;
  getSignaturesForAddress(
    address: string,
    options?: { readonly before?: string; readonly until?: string; readonly limit?: number },
  ): SignatureInfo[];

  on<E extends keyof ClusterEvents>(event: E, listener: ClusterEvents[E]): () => void;
}
