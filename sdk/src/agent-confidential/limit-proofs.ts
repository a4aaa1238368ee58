/**
 * The proofs that a confidential spend keeps the policy's limits (CONFIDENTIAL.md "What the prover
 * shows"): for X_tx (encrypts m - a) and X_day (encrypts L_day - P - spent - a), each with a fresh
 * Pedersen commitment Z = x*G + rho*H,
 * - a CiphertextCommitmentEquality proof (source key, X, Z): the program compares X byte for byte
 *   with the X it computes itself, and the pubkey with the validity context's source key;
 * - one batched range proof over [Z_tx, Z_day]: both values are in [0, 2^k).
 * A broken limit makes x negative, a scalar near the group order that no range proof covers, so the
 * bit split is free: [k, 64 - k] in one U64 proof when both values fit, else U128 with [64, 64].
 *
 * The limits are checked here first (`policy_limit_exceeded`) so a spend the program would refuse
 * costs no proof work and sends nothing.
 */
import type { ConfidentialKeyset } from "../confidential/keys";
import {
  BatchedRangeProofU64Data,
  BatchedRangeProofU128Data,
  CiphertextCommitmentEqualityProofData,
  ElGamalCiphertext,
  type ElGamalKeypair,
  PedersenCommitment,
  PedersenOpening,
} from "../confidential/zk-sdk";
import { policyLimitExceeded } from "./errors";
import { type DailySpendInput, dailyLimitCiphertext, transactionLimitCiphertext } from "./limit-ciphertexts";

/** The most bits one batched U64 range proof covers; U128 covers two full u64 values. */
const U64_PROOF_BITS = 64;

export interface LimitProofInput {
  readonly keys: ConfidentialKeyset;
  /** A: the amount's ciphertext under the source key (`transferAmountCiphertext`). */
  readonly amountCiphertext: Uint8Array;
  /** a: the amount A encrypts. */
  readonly amount: bigint;
  /** m: `min(per_transaction_limit, hitl_threshold)` to execute now, `per_transaction_limit` to hold. */
  readonly bound: bigint;
  /** Today's daily-limit inputs, plus what S encrypts (the prover state). */
  readonly day: DailySpendInput & { readonly confidentialSpentToday: bigint };
}

export interface LimitProofs {
  /** X_tx and X_day as the program will compute them (64-byte ciphertexts). */
  readonly transactionCiphertext: Uint8Array;
  readonly dailyCiphertext: Uint8Array;
  readonly transactionEqualityProof: Uint8Array;
  readonly dailyEqualityProof: Uint8Array;
  /** VerifyBatchedRangeProofU64 (or U128) proof data over [Z_tx, Z_day]. */
  readonly rangeProof: Uint8Array;
  readonly rangeProofKind: "u64" | "u128";
  readonly bitLengths: readonly [number, number];
}

/** The two values the limit proofs show non-negative; throws `policy_limit_exceeded` when one is not. */
export function limitValues(input: Pick<LimitProofInput, "amount" | "bound" | "day">): {
  readonly transaction: bigint;
  readonly daily: bigint;
} {
  const transaction = input.bound - input.amount;
  if (transaction < 0n) {
    throw policyLimitExceeded("per_transaction", "the amount is above the per-transaction bound");
  }
  const remaining = input.day.dailyLimit - input.day.publicSpentToday;
  if (remaining < 0n) throw policyLimitExceeded("daily", "today's public spend is above the daily limit");
  const daily = remaining - input.day.confidentialSpentToday - input.amount;
  if (daily < 0n) throw policyLimitExceeded("daily", "the amount is above what is left of today's limit");
  return { transaction, daily };
}

/**
 * The bit lengths of the range proof: `[k, 64 - k]` (each at least 1) in one U64 proof when both
 * values fit in 64 bits together, else `[64, 64]` in a U128 proof (about twice the proving time).
 */
export function rangeBitLengths(
  transaction: bigint,
  daily: bigint,
): { readonly kind: "u64" | "u128"; readonly bitLengths: readonly [number, number] } {
  const transactionBits = Math.max(1, bitLength(transaction));
  const dailyBits = Math.max(1, bitLength(daily));
  if (transactionBits + dailyBits <= U64_PROOF_BITS) {
    return { kind: "u64", bitLengths: [transactionBits, U64_PROOF_BITS - transactionBits] };
  }
  return { kind: "u128", bitLengths: [64, 64] };
}

/**
 * What the limit proofs state, as plain data (no zk-sdk objects, so it crosses to a worker
 * thread): the two ciphertexts exactly as the program computes them, the values they encrypt and
 * the range-proof shape. Throws `policy_limit_exceeded` when a limit is broken (no proof exists).
 */
export interface LimitStatements {
  readonly transactionCiphertext: Uint8Array;
  readonly dailyCiphertext: Uint8Array;
  readonly values: { readonly transaction: bigint; readonly daily: bigint };
  readonly rangeProofKind: "u64" | "u128";
  readonly bitLengths: readonly [number, number];
}

export function limitStatements(input: LimitProofInput): LimitStatements {
  const values = limitValues(input);
  const { kind, bitLengths } = rangeBitLengths(values.transaction, values.daily);
  return {
    transactionCiphertext: transactionLimitCiphertext(input.bound, input.amountCiphertext),
    dailyCiphertext: dailyLimitCiphertext(input.day, input.amountCiphertext),
    values,
    rangeProofKind: kind,
    bitLengths,
  };
}

/** The three proof payloads of `statements`, made with the agent's ElGamal keypair. */
export type LimitProofData = Pick<
  LimitProofs,
  "transactionEqualityProof" | "dailyEqualityProof" | "rangeProof"
>;

/** Proves `statements`: fresh commitments Z, two equality proofs, one batched range proof. */
export function proveLimitStatements(elgamal: ElGamalKeypair, statements: LimitStatements): LimitProofData {
  const transaction = commitTo(statements.values.transaction);
  const daily = commitTo(statements.values.daily);
  // Equality proofs first: the range-proof constructor consumes the commitments and openings it
  // gets inside arrays (wasm-bindgen), so they cannot be used after it.
  const transactionEqualityProof = equalityProof(elgamal, statements.transactionCiphertext, transaction);
  const dailyEqualityProof = equalityProof(elgamal, statements.dailyCiphertext, daily);
  const RangeProof =
    statements.rangeProofKind === "u64" ? BatchedRangeProofU64Data : BatchedRangeProofU128Data;
  const rangeProof = new RangeProof(
    [transaction.commitment, daily.commitment],
    new BigUint64Array([statements.values.transaction, statements.values.daily]),
    Uint8Array.from(statements.bitLengths),
    [transaction.opening, daily.opening],
  ).toBytes();
  return { transactionEqualityProof, dailyEqualityProof, rangeProof };
}

/** The limit proofs in this thread (`limit-proof-task.ts` makes them on the proof pool). */
export function buildLimitProofs(input: LimitProofInput): LimitProofs {
  const statements = limitStatements(input);
  return withStatements(statements, proveLimitStatements(input.keys.elgamal, statements));
}

/** The proofs plus what they are about, as `LimitProofs`. */
export function withStatements(statements: LimitStatements, proofs: LimitProofData): LimitProofs {
  return {
    transactionCiphertext: statements.transactionCiphertext,
    dailyCiphertext: statements.dailyCiphertext,
    ...proofs,
    rangeProofKind: statements.rangeProofKind,
    bitLengths: statements.bitLengths,
  };
}

/** Limit inputs a malicious or buggy client might claim instead of the policy's. */
export interface ForgedLimits {
  readonly bound?: bigint;
  readonly dailyLimit?: bigint;
  readonly publicSpentToday?: bigint;
  readonly spendCiphertext?: Uint8Array;
  readonly confidentialSpentToday?: bigint;
}

/**
 * TEST ONLY — never call it to spend. Builds limit proofs against `forged` limits instead of the
 * policy's, as a malicious client would: the proofs verify in the ZK program, but their ciphertexts
 * are not the X the program computes, so `agent_confidential_transfer` must refuse them
 * (`LimitProofMismatch`). The attack suites use it to prove that.
 */
export function unsafeBuildLimitProofsWithForgedLimits(
  input: LimitProofInput,
  forged: ForgedLimits,
): LimitProofs {
  return buildLimitProofs(unsafeForgedLimitInput(input, forged));
}

/** TEST ONLY: `input` with the forged values in place of the policy's. */
export function unsafeForgedLimitInput(input: LimitProofInput, forged: ForgedLimits): LimitProofInput {
  return {
    ...input,
    bound: forged.bound ?? input.bound,
    day: {
      dailyLimit: forged.dailyLimit ?? input.day.dailyLimit,
      publicSpentToday: forged.publicSpentToday ?? input.day.publicSpentToday,
      spendCiphertext: forged.spendCiphertext ?? input.day.spendCiphertext,
      confidentialSpentToday: forged.confidentialSpentToday ?? input.day.confidentialSpentToday,
    },
  };
}

interface Committed {
  readonly value: bigint;
  readonly commitment: PedersenCommitment;
  readonly opening: PedersenOpening;
}

/** Z = value*G + rho*H with a fresh opening rho. */
function commitTo(value: bigint): Committed {
  const opening = new PedersenOpening();
  return { value, commitment: PedersenCommitment.from(value, opening), opening };
}

function equalityProof(
  elgamal: ElGamalKeypair,
  ciphertextBytes: Uint8Array,
  committed: Committed,
): Uint8Array {
  const ciphertext = ElGamalCiphertext.fromBytes(ciphertextBytes);
  if (ciphertext === undefined) throw new Error("limit ciphertext is not a valid ElGamal ciphertext");
  return new CiphertextCommitmentEqualityProofData(
    elgamal,
    ciphertext,
    committed.commitment,
    committed.opening,
    committed.value,
  ).toBytes();
}

function bitLength(value: bigint): number {
  return value === 0n ? 0 : value.toString(2).length;
}
