/**
 * Amount limits of confidential operations. Token-2022 carries a deposited or transferred amount as
 * a 16-bit low and a 32-bit high ElGamal ciphertext, so one operation moves at most 2^48 - 1 base
 * units (281,474,976 USDG at 6 decimals); balances themselves are u64.
 */
import { ConfidentialError } from "./errors";

export const MAX_U64 = (1n << 64n) - 1n;
/** A balance is a u64: the range proof of a new balance shows it below 2^64. */
export const BALANCE_BITS = 64;
export const TRANSFER_AMOUNT_LO_BITS = 16n;
export const TRANSFER_AMOUNT_HI_BITS = 32n;
export const MAX_CONFIDENTIAL_AMOUNT = (1n << (TRANSFER_AMOUNT_LO_BITS + TRANSFER_AMOUNT_HI_BITS)) - 1n;

/** Throws `invalid_amount` unless 0 <= amount <= `max`. */
export function assertAmount(amount: bigint, max: bigint = MAX_CONFIDENTIAL_AMOUNT): void {
  if (typeof amount !== "bigint" || amount < 0n || amount > max) {
    throw new ConfidentialError("invalid_amount", `the amount must be an integer in [0, ${max}]`);
  }
}

/** [amount mod 2^loBits, amount >> loBits]. */
export function splitAmount(amount: bigint, loBits: bigint): readonly [bigint, bigint] {
  return [amount & ((1n << loBits) - 1n), amount >> loBits];
}
