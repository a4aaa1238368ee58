/**
 * Unsigned little-endian integers, the byte order of Solana's and zk-sdk's encodings (u64 amounts,
 * Ristretto scalars). Browser-safe, so the confidential keys (Node) and the sealed envelopes
 * (browser) read and write them with the same two functions.
 */

/** The unsigned integer whose little-endian bytes are `bytes`. */
export function littleEndianToBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i] ?? 0);
  return value;
}

/** `value` as `length` little-endian bytes (its low bytes: the caller keeps it in range). */
export function bigIntToLittleEndian(value: bigint, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let rest = value;
  for (let i = 0; i < length; i++) {
    bytes[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return bytes;
}
