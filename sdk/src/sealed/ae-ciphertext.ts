/**
 * zk-sdk's `AeCiphertext` opened with noble, so it loads in a browser: AES-128-GCM-SIV under the
 * 16-byte AE key, nonce (12 bytes) || ciphertext and tag (24), no associated data, over a u64
 * little-endian amount (what a token account's decryptable balance and the prover state hold).
 */
import { gcmsiv } from "@noble/ciphers/aes";
import { littleEndianToBigInt } from "./little-endian";

const NONCE_LENGTH = 12;
export const AE_CIPHERTEXT_LENGTH = 36;

/** The amount `ciphertext` holds under `aeKey`; throws when it does not open with that key. */
export function openAeCiphertext(aeKey: Uint8Array, ciphertext: Uint8Array): bigint {
  const plain = gcmsiv(aeKey, ciphertext.subarray(0, NONCE_LENGTH)).decrypt(
    ciphertext.subarray(NONCE_LENGTH),
  );
  if (plain.length !== 8) throw new RangeError("not a u64");
  return littleEndianToBigInt(plain);
}
