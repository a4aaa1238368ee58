/**
 * An encrypted running total (per-API-key "total USDG transferred"): the service adds every amount to
 * it but stores no plaintext; only the holder of the account's ElGamal secret can read it.
 *
 * Twisted ElGamal under the account's ElGamal key is additively homomorphic, so anyone with the
 * public key can add an amount without reading the total. Decryption is a discrete log, practical
 * only below 2^32, so the total is kept the way Token-2022 keeps a pending balance: two ciphertexts,
 * `lo` = sum of (amount & 0xffff) and `hi` = sum of (amount >> 16), total = lo + hi * 2^16.
 *
 * Format v1, 129 bytes (base64: 172 characters, standard padded):
 *   [0]         version = 1
 *   [1..65)     lo ciphertext (commitment 32 || handle 32)
 *   [65..129)   hi ciphertext
 * The empty total holds two all-zero ciphertexts (the Ristretto identity: an encryption of 0).
 *
 * Readable while lo < 2^32 and hi < 2^32: for at least 65,537 additions (each adds < 2^16 to lo) and a
 * total below 2^48 base units (281,474,976 USDG at 6 decimals). Beyond that decryption fails with
 * `balance_undecryptable`, never a wrong number. The encryption hides amounts, not integrity: whoever
 * stores the blob can add to it, swap it for another, or replay an old one.
 */
import { MAX_U64, splitAmount } from "./amounts";
import { decryptElGamal } from "./balance";
import { addCiphertexts, ELGAMAL_CIPHERTEXT_LENGTH } from "./ciphertext-arithmetic";
import { ConfidentialError, isConfidentialError } from "./errors";
import { decodeStrictBase64 } from "./key-export";
import type { ConfidentialKeyset } from "./keys";
import { ElGamalPubkey } from "./zk-sdk";

export const ENCRYPTED_TOTAL_VERSION = 1;
export const ENCRYPTED_TOTAL_LENGTH = 1 + 2 * ELGAMAL_CIPHERTEXT_LENGTH;
/** Bits of each amount that go into `lo`; the rest go into `hi` (Token-2022's pending-balance split). */
export const ENCRYPTED_TOTAL_LO_BITS = 16n;

const LO_START = 1;
const HI_START = LO_START + ELGAMAL_CIPHERTEXT_LENGTH;

/** A new total of 0: the version byte and two all-zero (identity) ciphertexts; needs no key. */
export function emptyEncryptedTotal(): Uint8Array {
  const total = new Uint8Array(ENCRYPTED_TOTAL_LENGTH);
  total[0] = ENCRYPTED_TOTAL_VERSION;
  return total;
}

/**
 * The total whose parts are `lo` and `hi` (64-byte ciphertexts under the account's key): e.g. a
 * Token-2022 transfer's two amount halves, which are split the same way (sdk agent-confidential
 * `encryptedTotalOfTransfer`).
 */
export function encryptedTotalFromParts(lo: Uint8Array, hi: Uint8Array): Uint8Array {
  if (lo.length !== ELGAMAL_CIPHERTEXT_LENGTH || hi.length !== ELGAMAL_CIPHERTEXT_LENGTH) {
    throw new RangeError(`each part of an encrypted total is a ${ELGAMAL_CIPHERTEXT_LENGTH}-byte ciphertext`);
  }
  const total = emptyEncryptedTotal();
  total.set(lo, LO_START);
  total.set(hi, HI_START);
  return total;
}

/**
 * Returns a new total that encrypts `total + amount` under `pubkey` (a zk-sdk ElGamalPubkey or its 32
 * bytes, which must be the key `total` was built with). The amount's halves are encrypted with fresh
 * randomness, so the result looks random even when the amount is 0 and never reveals it. Throws
 * RangeError for an amount outside [0, 2^64), a blob that is not format v1, or an invalid key.
 */
export function addToEncryptedTotal(
  total: Uint8Array,
  pubkey: ElGamalPubkey | Uint8Array,
  amount: bigint,
): Uint8Array {
  const { lo, hi } = parts(total);
  if (typeof amount !== "bigint" || amount < 0n || amount > MAX_U64) {
    throw new RangeError(`the amount must be a u64 (an integer in [0, ${MAX_U64}])`);
  }
  const key = elgamalPubkey(pubkey);
  const [amountLo, amountHi] = splitAmount(amount, ENCRYPTED_TOTAL_LO_BITS);
  try {
    return encryptedTotalFromParts(
      addCiphertexts(lo, key.encryptU64(amountLo).toBytes()),
      addCiphertexts(hi, key.encryptU64(amountHi).toBytes()),
    );
  } catch (cause) {
    // zk-sdk's own output always decodes, so the stored blob holds a non-point.
    throw new RangeError("the encrypted total holds an invalid ciphertext", { cause });
  }
}

/**
 * The sum of two totals made under the same key: `a + b` without knowing either. Lets an amount be
 * encrypted once (`addToEncryptedTotal(emptyEncryptedTotal(), key, amount)`), stored, and added to
 * a running total later by whoever holds no key at all. RangeError for a blob that is not format v1.
 */
export function sumEncryptedTotals(a: Uint8Array, b: Uint8Array): Uint8Array {
  const first = parts(a);
  const second = parts(b);
  try {
    return encryptedTotalFromParts(addCiphertexts(first.lo, second.lo), addCiphertexts(first.hi, second.hi));
  } catch (cause) {
    throw new RangeError("an encrypted total holds an invalid ciphertext", { cause });
  }
}

/**
 * Reads a total with the account's keys: two discrete logs (~0.3 s each; an all-zero part costs
 * nothing). Throws RangeError for a blob that is not format v1, and ConfidentialError
 * `balance_undecryptable`, naming the part, when a part does not decrypt below 2^32: another account's
 * keys, or a total past the limits in the file doc.
 */
export function decryptEncryptedTotal(total: Uint8Array, keys: ConfidentialKeyset): bigint {
  const { lo, hi } = parts(total);
  return decryptPart("lo", lo, keys) + (decryptPart("hi", hi, keys) << ENCRYPTED_TOTAL_LO_BITS);
}

/** The stored blob as standard padded base64 (172 characters); checks the format first. */
export function encryptedTotalToBase64(total: Uint8Array): string {
  parts(total);
  return Buffer.from(total).toString("base64");
}

/** Parses `encryptedTotalToBase64` output; RangeError unless canonical base64 of a format-v1 blob. */
export function encryptedTotalFromBase64(text: string): Uint8Array {
  const bytes = decodeStrictBase64(text);
  if (bytes === null) throw new RangeError("an encrypted total must be standard padded base64");
  parts(bytes);
  return bytes;
}

function parts(total: Uint8Array): { lo: Uint8Array; hi: Uint8Array } {
  if (!(total instanceof Uint8Array) || total.length !== ENCRYPTED_TOTAL_LENGTH) {
    throw new RangeError(
      `an encrypted total is ${ENCRYPTED_TOTAL_LENGTH} bytes, got ${total instanceof Uint8Array ? total.length : typeof total}`,
    );
  }
  if (total[0] !== ENCRYPTED_TOTAL_VERSION) {
    throw new RangeError(
      `unknown encrypted total version ${total[0]} (this SDK reads ${ENCRYPTED_TOTAL_VERSION})`,
    );
  }
  return { lo: total.subarray(LO_START, HI_START), hi: total.subarray(HI_START) };
}

function elgamalPubkey(pubkey: ElGamalPubkey | Uint8Array): ElGamalPubkey {
  if (!(pubkey instanceof Uint8Array)) return pubkey;
  // The identity is a valid point but no secret key matches it: the total would be unreadable.
  if (pubkey.length === 32 && pubkey.every((byte) => byte === 0)) {
    throw new RangeError("the all-zero ElGamal public key cannot be decrypted by anyone");
  }
  try {
    return ElGamalPubkey.fromBytes(pubkey);
  } catch (cause) {
    throw new RangeError("not an ElGamal public key (32 bytes, a valid Ristretto point)", { cause });
  }
}

function decryptPart(name: "lo" | "hi", ciphertext: Uint8Array, keys: ConfidentialKeyset): bigint {
  try {
    return decryptElGamal(ciphertext, keys);
  } catch (cause) {
    if (!isConfidentialError(cause, "balance_undecryptable")) throw cause;
    throw new ConfidentialError(
      "balance_undecryptable",
      `the encrypted total's ${name} part does not decrypt below 2^32 with these keys: another account's ` +
        "keys, or a total past its limits (2^48 base units, or more than 65,537 additions)",
      { cause },
    );
  }
}
