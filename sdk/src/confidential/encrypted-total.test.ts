import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addToEncryptedTotal,
  decryptEncryptedTotal,
  ENCRYPTED_TOTAL_LENGTH,
  emptyEncryptedTotal,
  encryptedTotalFromBase64,
  encryptedTotalToBase64,
  sumEncryptedTotals,
} from "./encrypted-total";
import { isConfidentialError } from "./errors";
import { bigIntToLittleEndian } from "./keys";
import { randomKeysets } from "./keys.test-support";

// Every decryption is two discrete logs (~0.3 s each), so each test decrypts at most once.
const [keys, stranger] = randomKeysets(2);

const addAll = (amounts: readonly bigint[]) =>
  amounts.reduce(
    // Alternate the two accepted key forms: the zk-sdk object and its 32 bytes.
    (total, amount, i) =>
      addToEncryptedTotal(total, i % 2 ? keys.elgamal.pubkey() : keys.elgamalPubkey, amount),
    emptyEncryptedTotal(),
  );

const contains = (haystack: Uint8Array, needle: Uint8Array) =>
  Buffer.from(haystack).indexOf(Buffer.from(needle)) !== -1;

describe("encrypted total", () => {
  it("Given an empty total, then it is version 1 and two identity ciphertexts, and reads as 0", () => {
    const empty = emptyEncryptedTotal();
    expect(empty.length).toBe(ENCRYPTED_TOTAL_LENGTH);
    expect(empty[0]).toBe(1);
    expect(empty.subarray(1).every((byte) => byte === 0)).toBe(true);
    expect(decryptEncryptedTotal(empty, keys)).toBe(0n);
  });

  it("Given several amounts added, when the holder decrypts, then it reads their exact sum", () => {
    // Both halves non-zero, zero, lo-only, hi-only, and 10^12 base units (1,000,000 USDG).
    const amounts = [123_456_789n, 0n, 65_535n, 65_536n, 1n, 10n ** 12n];
    const total = addAll(amounts);
    expect(decryptEncryptedTotal(total, keys)).toBe(amounts.reduce((sum, amount) => sum + amount, 0n));
  });

  it("Given an amount encrypted on its own and stored, when summed into a total later, then the total reads the sum", () => {
    const increment = addToEncryptedTotal(emptyEncryptedTotal(), keys.elgamalPubkey, 4_000_000n);
    const total = sumEncryptedTotals(addAll([123_456_789n]), increment);
    expect(decryptEncryptedTotal(total, keys)).toBe(127_456_789n);
    expect(() => sumEncryptedTotals(total, increment.subarray(1))).toThrow(RangeError);
  });

  it("Given a total, when another account's keys decrypt it, then they do not read the total", () => {
    const amounts = [10n ** 12n, 777_777n];
    const total = addAll(amounts);
    let read: bigint | undefined;
    try {
      read = decryptEncryptedTotal(total, stranger);
    } catch (error) {
      expect(isConfidentialError(error, "balance_undecryptable")).toBe(true);
    }
    expect(read).not.toBe(10n ** 12n + 777_777n);
  });

  it("Given an amount added, then neither the blob nor its base64 contains the amount", () => {
    const amount = 10n ** 12n;
    const total = addToEncryptedTotal(emptyEncryptedTotal(), keys.elgamalPubkey, amount);
    const littleEndian = bigIntToLittleEndian(amount, 8);
    expect(contains(total, littleEndian)).toBe(false);
    // The significant bytes alone (00 10 a5 d4 e8), and the halves' own 2- and 4-byte encodings.
    expect(contains(total, littleEndian.subarray(0, 5))).toBe(false);
    expect(contains(total, bigIntToLittleEndian(amount >> 16n, 4))).toBe(false);
    expect(encryptedTotalToBase64(total)).not.toContain(amount.toString());
  });

  it("Given the same amount added twice, or 0 added, then every result differs (fresh randomness)", () => {
    const empty = emptyEncryptedTotal();
    const once = addToEncryptedTotal(empty, keys.elgamalPubkey, 5n);
    const again = addToEncryptedTotal(empty, keys.elgamalPubkey, 5n);
    const plusZero = addToEncryptedTotal(once, keys.elgamalPubkey, 0n);
    expect(Buffer.from(once).equals(Buffer.from(again))).toBe(false);
    expect(Buffer.from(plusZero).equals(Buffer.from(once))).toBe(false);
  });

  it("Given a total of 2^48 base units, when decrypted, then it fails naming the hi part", () => {
    const total = addToEncryptedTotal(emptyEncryptedTotal(), keys.elgamalPubkey, 1n << 48n);
    expect(() => decryptEncryptedTotal(total, keys)).toThrow(/hi part does not decrypt/);
  });

  it("Given a total, then base64 round-trips it in 172 characters", () => {
    const total = addToEncryptedTotal(emptyEncryptedTotal(), keys.elgamalPubkey, 42n);
    const text = encryptedTotalToBase64(total);
    expect(text).toHaveLength(172);
    expect(Buffer.from(encryptedTotalFromBase64(text)).equals(Buffer.from(total))).toBe(true);
  });

  it("Given a blob of the wrong length or version, then every function refuses it", () => {
    const badBlob = fc
      .uint8Array({ minLength: 0, maxLength: 200 })
      .filter((bytes) => bytes.length !== ENCRYPTED_TOTAL_LENGTH || bytes[0] !== 1);
    fc.assert(
      fc.property(badBlob, (blob) => {
        expect(() => addToEncryptedTotal(blob, keys.elgamalPubkey, 1n)).toThrow(RangeError);
        expect(() => decryptEncryptedTotal(blob, keys)).toThrow(RangeError);
        expect(() => encryptedTotalToBase64(blob)).toThrow(RangeError);
        expect(() => encryptedTotalFromBase64(Buffer.from(blob).toString("base64"))).toThrow(RangeError);
      }),
      { numRuns: 50 },
    );
    const versionTwo = emptyEncryptedTotal();
    versionTwo[0] = 2;
    expect(() => decryptEncryptedTotal(versionTwo, keys)).toThrow(/version 2/);
    const text = encryptedTotalToBase64(emptyEncryptedTotal());
    expect(() => encryptedTotalFromBase64(`${text.slice(0, -1)}=`)).toThrow(RangeError);
    expect(() => encryptedTotalFromBase64(` ${text}`)).toThrow(RangeError);
  });

  it("Given an amount outside u64, a non-bigint, or an invalid key, then adding refuses it", () => {
    const empty = emptyEncryptedTotal();
    for (const amount of [-1n, 1n << 64n, 5 as unknown as bigint]) {
      expect(() => addToEncryptedTotal(empty, keys.elgamalPubkey, amount)).toThrow(RangeError);
    }
    expect(() => addToEncryptedTotal(empty, keys.elgamalPubkey, (1n << 64n) - 1n)).not.toThrow();
    for (const key of [new Uint8Array(31), new Uint8Array(32), new Uint8Array(32).fill(0xff)]) {
      expect(() => addToEncryptedTotal(empty, key, 1n)).toThrow(RangeError);
    }
  });

  it("Given a blob whose ciphertext is not a point, then adding refuses it", () => {
    const corrupt = emptyEncryptedTotal();
    corrupt.fill(0xff, 1, 33);
    expect(() => addToEncryptedTotal(corrupt, keys.elgamalPubkey, 1n)).toThrow(RangeError);
  });
});
