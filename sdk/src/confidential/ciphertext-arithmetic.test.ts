import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ciphertextFromGrouped, subtractAmount, subtractLoHi } from "./ciphertext-arithmetic";
import { randomKeysets } from "./keys.test-support";
import { ElGamalCiphertext, GroupedElGamalCiphertext3Handles, PedersenOpening } from "./zk-sdk";

const [keys, other] = randomKeysets(2);
const decrypt = (bytes: Uint8Array) => {
  const ciphertext = ElGamalCiphertext.fromBytes(bytes);
  if (ciphertext === undefined) throw new Error("bad ciphertext");
  return keys.elgamal.secret().decrypt(ciphertext);
};
// Results stay below 2^16 so the (slow) discrete-log decryption is quick.
const small = fc.bigInt({ min: 0n, max: 60_000n });

describe("ciphertext arithmetic", () => {
  it("Given Enc(x), then subtractAmount(Enc(x), a) decrypts to x - a", () => {
    fc.assert(
      fc.property(small, small, (a, b) => {
        const total = a + b;
        expect(decrypt(subtractAmount(keys.elgamal.pubkey().encryptU64(total).toBytes(), a))).toBe(b);
      }),
      { numRuns: 8 },
    );
  });

  it("Given grouped lo/hi ciphertexts, then subtractLoHi matches Token-2022's debit of lo + hi * 2^16", () => {
    const [lo, hi] = [1_234n, 1n];
    const amount = lo + (hi << 16n);
    const balance = keys.elgamal
      .pubkey()
      .encryptU64(amount + 5_000n)
      .toBytes();
    const group = (value: bigint) =>
      GroupedElGamalCiphertext3Handles.encryptWith(
        keys.elgamal.pubkey(),
        other.elgamal.pubkey(),
        other.elgamal.pubkey(),
        value,
        new PedersenOpening(),
      ).toBytes();
    const result = subtractLoHi(
      balance,
      ciphertextFromGrouped(group(lo), 0),
      ciphertextFromGrouped(group(hi), 0),
      16n,
    );
    expect(decrypt(result)).toBe(5_000n);
  });

  it("Given a grouped ciphertext, then handle i pairs the commitment with the i-th handle", () => {
    const grouped = new Uint8Array(128).map((_, i) => i);
    const second = ciphertextFromGrouped(grouped, 1);
    expect(Array.from(second.subarray(0, 32))).toEqual(Array.from(grouped.subarray(0, 32)));
    expect(Array.from(second.subarray(32))).toEqual(Array.from(grouped.subarray(64, 96)));
    expect(() => ciphertextFromGrouped(grouped, 3)).toThrow(RangeError);
  });
});
