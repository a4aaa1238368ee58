/**
 * The one error type of `@cpay/sdk/sealed`. Codes:
 * - `invalid_secret`: not an exported account secret (format v1), or a secret that derives no key;
 * - `not_yours`: the viewer is neither the sender nor the recipient of the sealed details;
 * - `malformed`: not an envelope v1, or one altered, or bound to another resource;
 * - `spend_mismatch`: an agent's confidential spend whose AE copy does not decrypt with the agent's
 *   key, or decrypts to a total its ElGamal ciphertext does not hold (agent-budget.ts).
 */
export type SealedErrorCode = "invalid_secret" | "not_yours" | "malformed" | "spend_mismatch";

export class SealedError extends Error {
  override readonly name = "SealedError";
  constructor(
    readonly code: SealedErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `error` is a SealedError (with `code`, when given). */
export function isSealedError(error: unknown, code?: SealedErrorCode): error is SealedError {
  return error instanceof SealedError && (code === undefined || error.code === code);
}
