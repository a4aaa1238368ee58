/**
 * The ciphertexts the agent-policy program derives when it checks a confidential spend against
 * the policy (programs/agent-policy/CONFIDENTIAL.md "What the program reads"), computed here the
 * same way so the prover proves statements about exactly the bytes the program will compare.
 *
 * From the transfer's ciphertext-validity proof context (lo = 16-bit, hi = 32-bit halves, handle 0
 * under the source key):
 *
 *     A     = (C_lo + 2^16*C_hi, D_lo + 2^16*D_hi)           encrypts the amount a
 *     X_tx  = (m*G, identity) - A                            encrypts m - a
 *     X_day = ((L_day - P)*G, identity) - S - A              encrypts L_day - P - spent - a
 *
 * All scalars here are public (limits, today's public spend, the constant 2^16), so noble's
 * variable-time `multiplyUnsafe` leaks nothing; it also accepts 0, which `multiply` refuses. The
 * identity point encodes as 32 zero bytes on both sides (curve25519-dalek and noble), which is also
 * what an unwritten spend ciphertext holds.
 */
import { RistrettoPoint } from "@noble/curves/ed25519";
import {
  type CiphertextPoints,
  decodeCiphertext,
  ELGAMAL_CIPHERTEXT_LENGTH,
  encodeCiphertext,
} from "../confidential/ciphertext-arithmetic";
import { policyLimitExceeded } from "./errors";

type Point = InstanceType<typeof RistrettoPoint>;

/** Bits of the amount's low half in a Token-2022 transfer (the high half is scaled by 2^16). */
export const TRANSFER_LO_BITS = 16n;
/** A grouped ciphertext with three handles: commitment 32, then one 32-byte handle per key. */
export const GROUPED_CIPHERTEXT_3_HANDLES_LENGTH = 128;
/** The context of BatchedGroupedCiphertext3HandlesValidity: 3 pubkeys, grouped lo, grouped hi. */
export const VALIDITY_PROOF_CONTEXT_LENGTH = 3 * 32 + 2 * GROUPED_CIPHERTEXT_3_HANDLES_LENGTH;

const U64_MAX = (1n << 64n) - 1n;

/** The public part of a transfer's ciphertext-validity proof (its first 352 bytes). */
export interface ValidityProofContext {
  /** Handle 0's key: the source account's ElGamal key. */
  readonly sourcePubkey: Uint8Array;
  readonly destinationPubkey: Uint8Array;
  readonly auditorPubkey: Uint8Array;
  /** Commitment 32 || source handle 32 || destination handle 32 || auditor handle 32. */
  readonly groupedLo: Uint8Array;
  readonly groupedHi: Uint8Array;
}

/**
 * Reads the context out of BatchedGroupedCiphertext3HandlesValidity proof data (or a context
 * account's data after its 33-byte header: the layout is the same).
 */
export function parseValidityProofContext(bytes: Uint8Array): ValidityProofContext {
  if (bytes.length < VALIDITY_PROOF_CONTEXT_LENGTH) {
    throw new RangeError(
      `a ciphertext-validity context is ${VALIDITY_PROOF_CONTEXT_LENGTH} bytes, got ${bytes.length}`,
    );
  }
  const at = (offset: number, length: number) => bytes.slice(offset, offset + length);
  return {
    sourcePubkey: at(0, 32),
    destinationPubkey: at(32, 32),
    auditorPubkey: at(64, 32),
    groupedLo: at(96, GROUPED_CIPHERTEXT_3_HANDLES_LENGTH),
    groupedHi: at(96 + GROUPED_CIPHERTEXT_3_HANDLES_LENGTH, GROUPED_CIPHERTEXT_3_HANDLES_LENGTH),
  };
}

/** A = (C_lo + 2^16*C_hi, D_lo + 2^16*D_hi): the amount's ciphertext under the source key. */
export function transferAmountCiphertext(context: ValidityProofContext): Uint8Array {
  const scale = 1n << TRANSFER_LO_BITS;
  const lo = sourceCiphertext(context.groupedLo);
  const hi = sourceCiphertext(context.groupedHi);
  return encodeCiphertext({
    commitment: lo.commitment.add(hi.commitment.multiplyUnsafe(scale)),
    handle: lo.handle.add(hi.handle.multiplyUnsafe(scale)),
  });
}

/** X_tx = (m*G, identity) - A: encrypts `bound - a`; `bound` is the per-transaction bound m. */
export function transactionLimitCiphertext(bound: bigint, amountCiphertext: Uint8Array): Uint8Array {
  assertU64(bound, "bound");
  const amount = decodeCiphertext(amountCiphertext);
  return encodeCiphertext({
    commitment: publicValue(bound).subtract(amount.commitment),
    handle: RistrettoPoint.ZERO.subtract(amount.handle),
  });
}

/** What the daily check starts from: the policy's limit and today's spends. */
export interface DailySpendInput {
  readonly dailyLimit: bigint;
  /** P: today's public spend (`spent_today`, zero when the stored day is over). */
  readonly publicSpentToday: bigint;
  /** S: today's confidential spend ciphertext (64 zero bytes when none or the day is over). */
  readonly spendCiphertext: Uint8Array;
}

/**
 * X_day = ((L_day - P)*G, identity) - S - A: encrypts `L_day - P - spent - a`. `L_day - P` is
 * checked, as on-chain: a policy lowered below today's public spend throws `policy_limit_exceeded`
 * (daily).
 */
export function dailyLimitCiphertext(day: DailySpendInput, amountCiphertext: Uint8Array): Uint8Array {
  assertU64(day.dailyLimit, "dailyLimit");
  assertU64(day.publicSpentToday, "publicSpentToday");
  const remaining = day.dailyLimit - day.publicSpentToday;
  if (remaining < 0n) throw policyLimitExceeded("daily", "today's public spend is above the daily limit");
  const spend = decodeCiphertext(day.spendCiphertext);
  const amount = decodeCiphertext(amountCiphertext);
  return encodeCiphertext({
    commitment: publicValue(remaining).subtract(spend.commitment).subtract(amount.commitment),
    handle: RistrettoPoint.ZERO.subtract(spend.handle).subtract(amount.handle),
  });
}

/** The ciphertext (commitment, source handle) of one grouped half. */
function sourceCiphertext(grouped: Uint8Array): CiphertextPoints {
  if (grouped.length !== GROUPED_CIPHERTEXT_3_HANDLES_LENGTH) {
    throw new RangeError(`a grouped ciphertext is 128 bytes, got ${grouped.length}`);
  }
  return decodeCiphertext(grouped.subarray(0, ELGAMAL_CIPHERTEXT_LENGTH));
}

/** v*G for a public v (0 gives the identity). */
function publicValue(value: bigint): Point {
  return RistrettoPoint.BASE.multiplyUnsafe(value);
}

function assertU64(value: bigint, name: string): void {
  if (typeof value !== "bigint" || value < 0n || value > U64_MAX) {
    throw new RangeError(`${name} must be a u64, got ${String(value)}`);
  }
}
