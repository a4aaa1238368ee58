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
  /** v0 only: the keys loaded from address lookup tables (empty otherwise), as in Solana's meta. */
  readonly loadedAddresses: { readonly writable: readonly string[]; readonly readonly: readonly string[] };
  /** Lamports per key before/after, in `accountKeys` then `loadedAddresses` (writable, readonly) order. */
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  /** CPIs made by each top-level instruction (only instructions that made some), as in Solana's meta. */
  readonly innerInstructions: readonly InnerInstructionGroup[];
}

/** The instructions invoked (CPI) while top-level instruction `index` ran. */
export interface InnerInstructionGroup {
  readonly index: number;
  readonly instructions: readonly {
    /** Index into `accountKeys` followed by the loaded addresses. */
    readonly programIdIndex: number;
    readonly accounts: readonly number[];
    readonly data: Uint8Array;
    /** 2 for a CPI from a top-level instruction, 3 for one level deeper, ... */
    readonly stackHeight: number;
  }[];
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
 * `kind` lets the RPC layer map it to the right JSON-RPC error; `outcome`, when present, carries
 * Solana's error JSON (and the simulation's logs for `preflight_failed`).
 */
export class SubmissionRejected extends Error {
  constructor(
    readonly kind:
      | "malformed"
      | "blockhash_not_found"
      | "already_processed"
      | "signature_failure"
      | "preflight_failed"
      /**
       * Valid and signed, but it could not be loaded for execution, so it never landed and paid no fee:
       * fee payer missing or unable to pay, program missing or not executable, bad compute-budget
       * instructions, lookup table missing, ... `outcome.err` has Solana's error (e.g.
       * "InsufficientFundsForFee"). A validator drops these too (RPC reports them at preflight).
       */
      | "load_failed",
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

/**
 * Reads take an optional commitment; omitted means `processed` (the newest state, what an in-process
 * caller wants). The RPC layer passes its request's commitment (RPC's own default is `finalized`).
 */
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
