/**
 * The text of an identifier the service issues: `<prefix>_` + 26 lowercase base32 characters (RFC
 * 4648, unpadded) of 16 bytes. A transfer's 16 bytes are also its on-chain transfer id (the
 * program's `transfer_id: [u8; 16]`), so whoever holds them (the service, the indexer, a
 * self-custody agent that chose them) names the transfer the same. Here, beside the hold ids made
 * from it, since this folder stays browser-safe; `@cpay/sdk/api` exports it.
 */
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

/** `<prefix>_<26 base32 characters of bytes>`; throws a RangeError unless `bytes` is 16 long. */
export function idFromBytes(prefix: string, bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new RangeError(`an id is 16 bytes, got ${bytes.length}`);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    // Only the low `bits` bits are still to be written: 12 at most.
    value = ((value << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  out += ALPHABET[(value << (5 - bits)) & 31];
  return `${prefix}_${out}`;
}

/** The 16 bytes of an id (the inverse of `idFromBytes`); throws a RangeError for a malformed one. */
export function bytesOfId(id: string): Uint8Array {
  const body = id.slice(id.indexOf("_") + 1);
  if (body.length !== 26) throw new RangeError(`malformed id ${id}`);
  const out = new Uint8Array(16);
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const char of body) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) throw new RangeError(`malformed id ${id}`);
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      if (index < 16) out[index++] = (value >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  return out;
}
