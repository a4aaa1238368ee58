import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { randomKeysets } from "../confidential/keys.test-support";
import {
  BatchedRangeProofU64Data,
  BatchedRangeProofU128Data,
  CiphertextCommitmentEqualityProofData,
} from "../confidential/zk-sdk";
import { isPolicyLimitExceeded } from "./errors";
import { dailyLimitCiphertext, transactionLimitCiphertext } from "./limit-ciphertexts";
import {
  buildLimitProofs,
  type LimitProofInput,
  rangeBitLengths,
  unsafeBuildLimitProofsWithForgedLimits,
} from "./limit-proofs";

const [keys] = randomKeysets(1);
const ZERO = new Uint8Array(64);
const U64_MAX = (1n << 64n) - 1n;

/** A limit-proof input for amount `a` (encrypted under the agent's key) and the given limits. */
function input(
  amount: bigint,
  limits: { bound: bigint; dailyLimit: bigint; publicSpentToday?: bigint; spent?: bigint },
): LimitProofInput {
  const spent = limits.spent ?? 0n;
  return {
    keys,
    amountCiphertext: keys.elgamal.pubkey().encryptU64(amount).toBytes(),
    amount,
    bound: limits.bound,
    day: {
      dailyLimit: limits.dailyLimit,
      publicSpentToday: limits.publicSpentToday ?? 0n,
      spendCiphertext: spent === 0n ? ZERO : keys.elgamal.pubkey().encryptU64(spent).toBytes(),
      confidentialSpentToday: spent,
    },
  };
}

/** The context bytes of an equality proof: pubkey 32, ciphertext 64, commitment 32. */
function equalityContext(proof: Uint8Array) {
  const data = CiphertextCommitmentEqualityProofData.fromBytes(proof);
  data.verify();
  const context = data.context().toBytes();
  return {
    pubkey: context.slice(0, 32),
    ciphertext: context.slice(32, 96),
    commitment: context.slice(96, 128),
  };
}

/** The commitments and bit lengths of a range proof context (8 x 32, 8 x u8). */
function rangeContext(kind: "u64" | "u128", proof: Uint8Array) {
  const data =
    kind === "u64" ? BatchedRangeProofU64Data.fromBytes(proof) : BatchedRangeProofU128Data.fromBytes(proof);
  data.verify();
  const context = data.context().toBytes();
  return {
    commitments: [0, 1].map((i) => context.slice(i * 32, i * 32 + 32)),
    bitLengths: Array.from(context.slice(256, 264)),
  };
}

describe("limit proofs", () => {
  it("Given a spend within both limits, When the proofs are built, Then they verify and bind X_tx, X_day and [Z_tx, Z_day]", () => {
    const spend = input(30n, { bound: 50n, dailyLimit: 250n, publicSpentToday: 20n, spent: 100n });
    const proofs = buildLimitProofs(spend);
    expect(proofs.transactionCiphertext).toEqual(transactionLimitCiphertext(50n, spend.amountCiphertext));
    expect(proofs.dailyCiphertext).toEqual(dailyLimitCiphertext(spend.day, spend.amountCiphertext));
    const transaction = equalityContext(proofs.transactionEqualityProof);
    const daily = equalityContext(proofs.dailyEqualityProof);
    expect(transaction.pubkey).toEqual(keys.elgamalPubkey);
    expect(daily.pubkey).toEqual(keys.elgamalPubkey);
    expect(transaction.ciphertext).toEqual(proofs.transactionCiphertext);
    expect(daily.ciphertext).toEqual(proofs.dailyCiphertext);
    expect(proofs.rangeProofKind).toBe("u64");
    const range = rangeContext("u64", proofs.rangeProof);
    expect(range.commitments).toEqual([transaction.commitment, daily.commitment]);
    // 50 - 30 = 20 (5 bits), 250 - 20 - 100 - 30 = 100 (7 bits).
    expect(range.bitLengths).toEqual([5, 59, 0, 0, 0, 0, 0, 0]);
  });

  it("Given values that do not fit 64 bits together, When the proofs are built, Then one U128 proof covers [64, 64]", () => {
    const proofs = buildLimitProofs(input(1n, { bound: U64_MAX, dailyLimit: U64_MAX }));
    expect(proofs.rangeProofKind).toBe("u128");
    expect(rangeContext("u128", proofs.rangeProof).bitLengths.slice(0, 2)).toEqual([64, 64]);
  });

  it("Given any two u64 values, Then the bit lengths cover both and sum to 64 (U64) or are [64, 64] (U128)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), fc.bigInt({ min: 0n, max: U64_MAX }), (tx, day) => {
        const { kind, bitLengths } = rangeBitLengths(tx, day);
        const [first, second] = bitLengths;
        expect(first).toBeGreaterThanOrEqual(1);
        expect(second).toBeGreaterThanOrEqual(1);
        expect(tx < 1n << BigInt(first)).toBe(true);
        expect(day < 1n << BigInt(second)).toBe(true);
        expect(first + second).toBe(kind === "u64" ? 64 : 128);
      }),
    );
    expect(rangeBitLengths(0n, 0n)).toEqual({ kind: "u64", bitLengths: [1, 63] });
    expect(rangeBitLengths((1n << 62n) - 1n, 3n)).toEqual({ kind: "u64", bitLengths: [62, 2] });
    expect(rangeBitLengths((1n << 62n) - 1n, 4n).kind).toBe("u128");
    expect(rangeBitLengths(U64_MAX, 0n).kind).toBe("u128");
  });

  it("Given an amount above the bound, When the proofs are built, Then the per-transaction limit is broken before any proof work", () => {
    expect(catchError(() => buildLimitProofs(input(51n, { bound: 50n, dailyLimit: 250n })))).toSatisfy(
      (error: unknown) => isPolicyLimitExceeded(error, "per_transaction"),
    );
  });

  it("Given an amount above what is left today, When the proofs are built, Then the daily limit is broken", () => {
    const spend = input(31n, { bound: 50n, dailyLimit: 250n, publicSpentToday: 20n, spent: 200n });
    expect(catchError(() => buildLimitProofs(spend))).toSatisfy((error: unknown) =>
      isPolicyLimitExceeded(error, "daily"),
    );
    const exact = input(30n, { bound: 50n, dailyLimit: 250n, publicSpentToday: 20n, spent: 200n });
    // What is left is exactly the amount: the daily value is 0, still a valid (1+ bit) proof.
    const proofs = buildLimitProofs(exact);
    expect(rangeContext(proofs.rangeProofKind, proofs.rangeProof).bitLengths.slice(0, 2)).toEqual([5, 59]);
  });

  it("Given a forged bound, When the unsafe builder proves against it, Then the proofs verify but X_tx is not the program's", () => {
    const spend = input(80n, { bound: 50n, dailyLimit: 250n });
    const forged = unsafeBuildLimitProofsWithForgedLimits(spend, { bound: 100n });
    expect(equalityContext(forged.transactionEqualityProof).ciphertext).toEqual(forged.transactionCiphertext);
    expect(forged.transactionCiphertext).not.toEqual(transactionLimitCiphertext(50n, spend.amountCiphertext));
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
