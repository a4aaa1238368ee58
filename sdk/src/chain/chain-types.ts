/**
 * The plain data the chain port speaks (chain-port.ts), whatever is behind it: addresses and
 * signatures as base58 strings, lamports and slots as bigint, transactions as wire-format bytes
 * (the exact bytes a validator receives), errors as Solana's `TransactionError` JSON.
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

/**
 * The cluster could not be reached: connection refused or reset, no answer in time, or an HTTP
 * 5xx/429 from the endpoint. Nothing is known about the request's effect (a send may or may not
 * have reached a leader), so a caller retries reads and re-checks a send's status before resending.
 * The message never carries the endpoint's URL (provider URLs embed API keys).
 */
export class ChainUnavailable extends Error {
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = "ChainUnavailable";
  }
}
