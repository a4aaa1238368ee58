/**
 * Base58 (Bitcoin alphabet) with the error vocabulary of the `bs58` crate.
 *
 * Agave reports a bad base58 parameter as `invalid base58 encoding: InvalidCharacter { character:
 * 'l', index: 4 }`; tools and people grep for that, so decode failures carry the same Debug text.
 * Inputs here are at most a few kilobytes (transactions, 128-byte account data), so the quadratic
 * textbook algorithm is fast enough and obviously correct.
 */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const INDEX = new Map<string, number>([...ALPHABET].map((char, index) => [char, index]));

/** A base58 decode failure; `message` is the bs58 Debug form (without a prefix). */
export class Base58Error extends Error {
  override readonly name = "Base58Error";
}

export function encodeBase58(bytes: Uint8Array): string {
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += (digits[i] as number) << 8;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = "";
  for (const byte of bytes) {
    if (byte !== 0) break;
    out += "1";
  }
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i] as number];
  return out;
}

export function decodeBase58(text: string): Uint8Array {
  const bytes: number[] = [];
  let index = 0;
  for (const char of text) {
    const value = INDEX.get(char);
    if (value === undefined) {
      const code = char.codePointAt(0) ?? 0;
      throw new Base58Error(
        code > 0x7f
          ? `NonAsciiCharacter { index: ${index} }`
          : `InvalidCharacter { character: ${rustChar(char)}, index: ${index} }`,
      );
    }
    let carry = value;
    for (let i = 0; i < bytes.length; i++) {
      carry += (bytes[i] as number) * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
    index += Buffer.byteLength(char);
  }
  for (const char of text) {
    if (char !== "1") break;
    bytes.push(0);
  }
  return Uint8Array.from(bytes.reverse());
}

/** Rust's `{:?}` of a char, enough for ASCII: quotes, and escapes for quote/backslash/control. */
function rustChar(char: string): string {
  if (char === "'") return "'\\''";
  if (char === "\\") return "'\\\\'";
  const code = char.charCodeAt(0);
  if (char === "\n") return "'\\n'";
  if (char === "\t") return "'\\t'";
  if (char === "\r") return "'\\r'";
  if (code < 0x20 || code === 0x7f) return `'\\u{${code.toString(16)}}'`;
  return `'${char}'`;
}
