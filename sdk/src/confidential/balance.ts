/**
 * Reading confidential balances with the account's keys.
 *
 * The available balance is read through the AE ciphertext Token-2022 keeps for the owner
 * (`decryptable_available_balance`): AES decryption, ~0 ms, any u64. ElGamal decryption is a
 * discrete log that takes ~0.3 s and only recovers values below 2^32, so it is used only where
 * there is no AE copy: the pending balance (lo/hi halves, each below 2^32 by construction) and the
 * repair of an AE copy made stale by a credit that raced an ApplyPendingBalance.
 */

import { isZeroCiphertext, subtractAmount } from "./ciphertext-arithmetic";
import { ConfidentialError } from "./errors";
import type { ConfidentialKeyset } from "./keys";
import type { ConfidentialAccountState } from "./token-account";
import { AeCiphertext, ElGamalCiphertext } from "./zk-sdk";

/** Bits of the pending balance's low half (Token-2022 splits credits 16 / 32). */
export const PENDING_BALANCE_LO_BITS = 16n;
/** ElGamal decryption recovers values below this. */
export const ELGAMAL_DECRYPTABLE_LIMIT = 1n << 32n;

/** Decrypts the AE copy of the available balance (the fast path). */
export function decryptAeBalance(state: ConfidentialAccountState, keys: ConfidentialKeyset): bigint {
  const ciphertext = AeCiphertext.fromBytes(state.decryptableAvailableBalance);
  const amount = ciphertext?.decrypt(keys.ae);
  if (amount === undefined) {
    throw new ConfidentialError("balance_undecryptable", "the AE balance does not decrypt with these keys");
  }
  return amount;
}

/**
 * Decrypts an ElGamal ciphertext under the account's key. Only for values below 2^32 (else
 * `balance_undecryptable`); an all-zero ciphertext (Token-2022's initial zero) costs nothing.
 */
export function decryptElGamal(ciphertext: Uint8Array, keys: ConfidentialKeyset): bigint {
  if (isZeroCiphertext(ciphertext)) return 0n;
  const parsed = ElGamalCiphertext.fromBytes(ciphertext);
  if (parsed === undefined) throw new ConfidentialError("balance_undecryptable", "not an ElGamal ciphertext");
  try {
    return keys.elgamal.secret().decrypt(parsed);
  } catch (cause) {
    throw new ConfidentialError(
      "balance_undecryptable",
      "the ciphertext does not decrypt below 2^32 with these keys",
      { cause },
    );
  }
}

/** The pending balance (lo + hi * 2^16); decrypts nothing when no credit is pending. */
export function decryptPendingBalance(state: ConfidentialAccountState, keys: ConfidentialKeyset): bigint {
  if (state.pendingBalanceCreditCounter === 0n) return 0n;
  const lo = decryptElGamal(state.pendingBalanceLow, keys);
  const hi = decryptElGamal(state.pendingBalanceHigh, keys);
  return lo + (hi << PENDING_BALANCE_LO_BITS);
}

/**
 * The exact available balance. Normally the AE copy. When an ApplyPendingBalance raced a new
 * credit (`expected != actual` pending counters), Token-2022 applied more than the AE copy says;
 * the difference is then decrypted from `available - aeAmount*G` (works while it is below 2^32).
 */
export function availableBalance(state: ConfidentialAccountState, keys: ConfidentialKeyset): bigint {
  const aeAmount = decryptAeBalance(state, keys);
  if (state.expectedPendingBalanceCreditCounter === state.actualPendingBalanceCreditCounter) return aeAmount;
  return aeAmount + decryptElGamal(subtractAmount(state.availableBalance, aeAmount), keys);
}
