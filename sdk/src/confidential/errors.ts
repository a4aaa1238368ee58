/**
 * One error type for everything confidential, with a stable `code` the API maps to HTTP statuses
 * (e.g. `recipient_not_confidential_ready` -> 422). Multi-transaction operations also name the
 * `step` that failed and what happened to the proof context accounts they created, so a caller can
 * tell "nothing moved, retry" from "funds moved" without parsing messages.
 */

export type ConfidentialErrorCode =
  /** A per-account secret or exported key that is malformed (wrong length, version, encoding). */
  | "invalid_secret"
  /** The amount is negative, above u64, or above what one confidential transfer can carry (2^48 - 1). */
  | "invalid_amount"
  /** The sender's token account is missing or not configured for confidential transfers. */
  | "account_not_confidential_ready"
  /** The recipient has no configured, approved confidential account that accepts credits now. */
  | "recipient_not_confidential_ready"
  /** The account's token account was configured with another ElGamal key than the one supplied. */
  | "account_key_mismatch"
  /** The available confidential balance is smaller than the amount; nothing was submitted. */
  | "insufficient_confidential_balance"
  /** An amount could not be decrypted (ElGamal decryption only recovers values below 2^32). */
  | "balance_undecryptable"
  /** A transaction of the operation failed; `step` says which; see ConfidentialError.contexts. */
  | "step_failed"
  /** A balance decryption proof did not verify against the on-chain ciphertext. */
  | "decryption_proof_invalid"
  /** An encrypted memo is malformed, tampered with, or not addressed to these keys. */
  | "memo_undecryptable"
  /** A transfer record's plaintext memo is longer than MAX_MEMO_PLAINTEXT_BYTES; nothing was submitted. */
  | "memo_too_long"
  /** A transfer record request is malformed (transfer id not 16 bytes, recipient key missing or not 32 bytes). */
  | "invalid_transfer_record"
  /** The sender already recorded this transfer id (its receipt exists); the transfer did not move funds. */
  | "transfer_already_recorded"
  /** The transaction carries no (matching) ServiceTransferRecorded event, or it failed. */
  | "transfer_record_not_found"
  /** A proof-pool worker (proof-pool.ts) died or its task failed; nothing was submitted. */
  | "proof_worker_failed"
  /**
   * Agent path: the amount breaks the per-transaction or the daily limit (`PolicyLimitExceededError.limit`);
   * detected before any proof work, nothing was submitted.
   */
  | "policy_limit_exceeded"
  /** Agent path: the agent has an open confidential hold; every other outgoing spend waits for it. */
  | "confidential_hold_open"
  /** Agent path: today's confidential spend does not decrypt with these keys (foreign key, or above 2^32 with a corrupt blob). */
  | "spend_state_undecryptable"
  /** Agent path: no agent account at that address or handle. */
  | "agent_not_found"
  /** Agent path: no (confidential) hold at that address. */
  | "hold_not_found";

/** The transactions a confidential operation is made of, named for errors and results. */
export type ConfidentialStep =
  | "configure_account"
  | "deposit"
  | "apply_pending_balance"
  | "equality_proof"
  | "ciphertext_validity_proof"
  | "range_proof"
  | "transfer"
  | "withdraw"
  | "public_transfer"
  /** Agent path: the limit proofs (agent-confidential/limit-proofs.ts). */
  | "limit_equality_transaction_proof"
  | "limit_equality_daily_proof"
  | "limit_range_proof"
  /** Agent path: holds and clean-up. */
  | "approve_hold"
  | "reject_hold"
  | "close_expired_hold"
  | "close_contexts";

/** What became of one proof context account after a failed operation. */
export interface ContextAccountOutcome {
  readonly address: string;
  readonly step: ConfidentialStep;
  /** never_created: its transaction did not land; closed: rent returned; orphaned: still open. */
  readonly outcome: "never_created" | "closed" | "orphaned";
}

export class ConfidentialError extends Error {
  readonly code: ConfidentialErrorCode;
  readonly step: ConfidentialStep | undefined;
  /** Only for `step_failed`: the context accounts the operation created and what became of them. */
  readonly contexts: readonly ContextAccountOutcome[];

  constructor(
    code: ConfidentialErrorCode,
    message: string,
    options: {
      readonly step?: ConfidentialStep;
      readonly contexts?: readonly ContextAccountOutcome[];
      readonly cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ConfidentialError";
    this.code = code;
    this.step = options.step;
    this.contexts = options.contexts ?? [];
  }
}

/** True when `error` is a ConfidentialError with `code` (and `step`, when given). */
export function isConfidentialError(
  error: unknown,
  code?: ConfidentialErrorCode,
  step?: ConfidentialStep,
): error is ConfidentialError {
  return (
    error instanceof ConfidentialError &&
    (code === undefined || error.code === code) &&
    (step === undefined || error.step === step)
  );
}
