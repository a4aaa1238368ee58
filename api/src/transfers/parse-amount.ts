/**
 * The amount of a transfer request: a decimal string (already shaped by `ZDecimalAmount`) turned
 * into base units of the asset with bigint arithmetic only. Every refusal is `400 invalid_request`
 * naming `amount`, and no message quotes the amount: it may be the plaintext of a confidential
 * transfer, and error bodies are stored (idempotency) and logged (status lines).
 */
import { AmountError, parseDecimalAmount, U64_MAX } from "@cpay/sdk";
import { MAX_CONFIDENTIAL_AMOUNT } from "@cpay/sdk/confidential";
import { ApiError } from "../core/api-error";

/**
 * Base units of `amount` for an asset of `decimals` decimals: positive, at most `decimals`
 * decimals, within u64. What one confidential transfer carries is checked apart
 * (`requireConfidentialCarriable`), after the balance: an amount the account cannot cover is
 * `402 insufficient_balance` whatever else is wrong with its size.
 */
export function parseTransferAmount(amount: string, decimals: number): bigint {
  let units: bigint;
  try {
    units = parseDecimalAmount(amount, decimals);
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    throw new ApiError("invalid_request", amountProblem(error, decimals), "amount");
  }
  if (units === 0n) throw new ApiError("invalid_request", "amount must be greater than zero", "amount");
  if (units > U64_MAX) throw new ApiError("invalid_request", "amount is too large", "amount");
  return units;
}

/** `400 invalid_request` when a confidential transfer's `units` exceed what one carries (2^48 - 1). */
export function requireConfidentialCarriable(units: bigint, confidential: boolean): void {
  if (confidential && units > MAX_CONFIDENTIAL_AMOUNT) {
    throw new ApiError(
      "invalid_request",
      "amount is above what one confidential transfer can carry (2^48 - 1 base units); split it or send it with confidential: false",
      "amount",
    );
  }
}

function amountProblem(error: AmountError, decimals: number): string {
  switch (error.code) {
    case "too_many_decimals":
      return `amount has more than ${decimals} decimals`;
    case "limit_too_large":
      return "amount is too large";
    case "negative_limit":
      return "amount must not be negative";
    default:
      return 'amount must be a decimal string such as "12.50"';
  }
}
