/**
 * The chain port: one interface for every cluster the service can talk to (DESIGN section 2).
 *
 * `embedded` implements it in process on LiteSVM; `localnet` serves an implementation over Solana
 * JSON-RPC + PubSub; an `rpc` implementation (later) wraps a real RPC endpoint. Everything above the
 * port (sdk flows, api, indexer) sees only this shape, so the same code runs against all three.
 *
 * Values are plain data: addresses and signatures as base58 strings, lamports and slots as bigint,
 * raw transactions as wire-format bytes (the exact bytes a validator receives).
 */

/** Solana commitment levels, ordered from weakest to strongest. */
export type Commitment = "processed" | "confirmed" | "finalized";

/** An account as stored on chain. `data` is a copy; mutating it changes nothing. */
export interface AccountRecord {
  readonly address: string;
  readonly lamports: bigint;
  readonly owner: string;
  readonly executable: boolean;
  readonly rentEpoch: bigint;
  readonly data: Uint8Array;
}

/**
 * A transaction error in the shape Solana RPC reports it (`TransactionError` JSON), e.g.
 * `{ InstructionError: [0, { Custom: 6001 }] }` or `"BlockhashNotFound"`.
 */
export type TransactionErrorJson = string | Record<string, unknown>;

/** What executing (or simulating) a transaction produced. */
export interface ExecutionOutcome {
  readonly err: TransactionErrorJson | null;
  readonly logs: readonly string[];
  readonly computeUnitsConsumed: bigint;
  readonly fee: bigint;
  /** Return data set by the last instruction, if any. */
  readonly returnData: { readonly programId: string; readonly data: Uint8Array } | null;
}

/** A landed transaction, as kept in the cluster's history (the source of getTransaction). */
export interface TransactionRecord extends ExecutionOutcome {
  readonly signature: string;
  readonly slot: bigint;
  /** Unix seconds of the slot the transaction landed in. */
  readonly blockTime: bigint;
  /** The transaction exactly as submitted (wire format, signatures included). */
  readonly wire: Uint8Array;
  /** Every account key the message references (static keys), in message order. */
  readonly accountKeys: readonly string[];
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
}

export interface SignatureStatus {
  readonly slot: bigint;
  /** null once finalized, like Solana RPC. */
  readonly confirmations: number | null;
  readonly confirmationStatus: Commitment;
  readonly err: TransactionErrorJson | null;
}

/** One entry of getSignaturesForAddress, newest first. */
export interface SignatureInfo {
  readonly signature: string;
  readonly slot: bigint;
  readonly err: TransactionErrorJson | null;
  readonly blockTime: bigint;
  readonly confirmationStatus: Commitment;
}

/**
 * Why a submission was refused before it executed (not a failed transaction: nothing landed).
 * `kind` lets the RPC layer map it to the right JSON-RPC error.
 */
export class SubmissionRejected extends Error {
  constructor(
    readonly kind: "malformed" | "blockhash_not_found" | "already_processed" | "signature_failure" | "preflight_failed",
    message: string,
    readonly outcome?: ExecutionOutcome,
  ) {
    super(message);
    this.name = "SubmissionRejected";
  }
}

/** Events the cluster pushes to subscribers (localnet PubSub, the indexer's embedded source). */
export interface ClusterEvents {
  /** A transaction landed (successfully or not) in `record.slot`. */
  transaction: (record: TransactionRecord) => void;
  /** The cluster advanced; `confirmed`/`finalized` are the highest slots at those levels. */
  slot: (update: { readonly slot: bigint; readonly confirmed: bigint; readonly finalized: bigint }) => void;
}

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
  ): ExecutionOutcome & { readonly replacementBlockhash: string | null };
  /** Credits lamports from the faucet; returns the signature of a real System transfer. */
  requestAirdrop(address: string, lamports: bigint): string;

  getSignatureStatus(signature: string): SignatureStatus | null;
  getTransaction(signature: string, commitment?: Commitment): TransactionRecord | null;
  getSignaturesForAddress(
    address: string,
    options?: { readonly before?: string; readonly until?: string; readonly limit?: number },
  ): SignatureInfo[];

  on<E extends keyof ClusterEvents>(event: E, listener: ClusterEvents[E]): () => void;
}
