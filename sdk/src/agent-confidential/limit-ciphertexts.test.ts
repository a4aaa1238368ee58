import { describe, expect, it } from "vitest";
import { randomKeysets } from "../confidential/keys.test-support";
import { encryptTransferAmount, proveAmountValidity } from "../confidential/transfer-proofs";
import { ElGamalCiphertext, GroupedElGamalCiphertext3Handles } from "../confidential/zk-sdk";
import { isPolicyLimitExceeded } from "./errors";
import {
  dailyLimitCiphertext,
  parseValidityProofContext,
  transactionLimitCiphertext,
  transferAmountCiphertext,
  VALIDITY_PROOF_CONTEXT_LENGTH,
} from "./limit-ciphertexts";

const [source, recipient, auditor] = randomKeysets(3);
const ZERO_CIPHERTEXT = new Uint8Array(64);

/** Decrypts under the source key (discrete log: keep the values small). */
function decrypt(bytes: Uint8Array, keys = source): bigint {
  const ciphertext = ElGamalCiphertext.fromBytes(bytes);
  if (ciphertext === undefined) throw new Error("not a ciphertext");
  return keys.elgamal.secret().decrypt(ciphertext);
}

/** Validity proof data of a transfer of `lo + 2^16 * hi` (lo below 2^16), as transfer-proofs.ts builds it. */
function validityProof(lo: bigint, hi: bigint): Uint8Array {
  const encryption = encryptTransferAmount({
    keys: source,
    amount: lo + (hi << 16n),
    recipientPubkey: recipient.elgamalPubkey,
    auditorPubkey: auditor.elgamalPubkey,
  });
  const pubkeys = [source.elgamal.pubkey(), recipient.elgamal.pubkey(), auditor.elgamal.pubkey()] as const;
  return proveAmountValidity(pubkeys, encryption);
}

describe("limit ciphertexts", () => {
  it("Given validity proof data, When its context is parsed, Then the keys and grouped halves are where zk-sdk put them", () => {
    const data = validityProof(7n, 1n);
    const context = parseValidityProofContext(data);
    expect(context.sourcePubkey).toEqual(source.elgamalPubkey);
    expect(context.destinationPubkey).toEqual(recipient.elgamalPubkey);
    expect(context.auditorPubkey).toEqual(auditor.elgamalPubkey);
    expect(
      GroupedElGamalCiphertext3Handles.fromBytes(context.groupedLo).decrypt(source.elgamal.secret(), 0),
    ).toBe(7n);
    expect(
      GroupedElGamalCiphertext3Handles.fromBytes(context.groupedHi).decrypt(recipient.elgamal.secret(), 1),
    ).toBe(1n);
    expect(() => parseValidityProofContext(data.subarray(0, VALIDITY_PROOF_CONTEXT_LENGTH - 1))).toThrow(
      RangeError,
    );
  });

  it("Given lo and hi halves, When A is formed, Then it decrypts to lo + 2^16 * hi under the source key", () => {
    const amount = transferAmountCiphertext(parseValidityProofContext(validityProof(1_234n, 2n)));
    expect(decrypt(amount)).toBe(1_234n + 2n * 65_536n);
  });

  it("Given a bound m and an amount a, When X_tx is formed, Then it decrypts to m - a", () => {
    const amount = transferAmountCiphertext(parseValidityProofContext(validityProof(300n, 0n)));
    expect(decrypt(transactionLimitCiphertext(1_000n, amount))).toBe(700n);
    expect(decrypt(transactionLimitCiphertext(300n, amount))).toBe(0n);
  });

  it("Given a bound of 0 and an amount of 0, When X_tx is formed, Then 0*G is the identity and X_tx decrypts to 0", () => {
    const amount = transferAmountCiphertext(parseValidityProofContext(validityProof(0n, 0n)));
    expect(decrypt(transactionLimitCiphertext(0n, amount))).toBe(0n);
  });

  it("Given today's spends, When X_day is formed, Then it decrypts to L - P - spent - a", () => {
    const amount = transferAmountCiphertext(parseValidityProofContext(validityProof(500n, 0n)));
    const spent = source.elgamal.pubkey().encryptU64(2_000n).toBytes();
    const x = dailyLimitCiphertext(
      { dailyLimit: 10_000n, publicSpentToday: 3_000n, spendCiphertext: spent },
      amount,
    );
    expect(decrypt(x)).toBe(10_000n - 3_000n - 2_000n - 500n);
  });

  it("Given no confidential spend yet (64 zero bytes), When X_day is formed, Then S counts as zero", () => {
    const amount = transferAmountCiphertext(parseValidityProofContext(validityProof(40n, 0n)));
    const x = dailyLimitCiphertext(
      { dailyLimit: 100n, publicSpentToday: 0n, spendCiphertext: ZERO_CIPHERTEXT },
      amount,
    );
    expect(decrypt(x)).toBe(60n);
  });

  it("Given a daily limit below today's public spend, When X_day is formed, Then it is a broken daily limit", () => {
    const amount = transferAmountCiphertext(parseValidityProofContext(validityProof(1n, 0n)));
    let thrown: unknown;
    try {
      dailyLimitCiphertext(
        { dailyLimit: 10n, publicSpentToday: 11n, spendCiphertext: ZERO_CIPHERTEXT },
        amount,
      );
    } catch (error) {
      thrown = error;
    }
    expect(isPolicyLimitExceeded(thrown, "daily")).toBe(true);
  });

  it("Given a broken limit, When X is formed anyway, Then it encrypts a negative value (no small decryption exists)", () => {
    const amount = transferAmountCiphertext(parseValidityProofContext(validityProof(11n, 0n)));
    const x = transactionLimitCiphertext(10n, amount);
    // (1*G, identity) - (-X) = X + 1*G encrypts 0: X encrypts -1, i.e. l - 1, far above any u64.
    expect(decrypt(transactionLimitCiphertext(1n, negate(x)))).toBe(0n);
  });
});

/** -X: (identity, identity) - X, via X_tx with bound 0. */
function negate(x: Uint8Array): Uint8Array {
  return transactionLimitCiphertext(0n, x);
}
