/**
 * Strict base58 decoding of RPC parameters with the error vocabulary of the `bs58` crate.
 *
 * Kit's codec does the conversion (and all encoding: `getBase58Decoder().decode(bytes)`); this module
 * only adds what kit cannot: agave reports a bad base58 parameter as `invalid base58 encoding:
 * InvalidCharacter { character: 'l', index: 4 }`, tools and people grep for that, and kit's error
 * for the same input reads differently. So characters are checked here first, with the same Debug text.
 */
import { getBase58Encoder } from "@solana/kit";

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const base58 = getBase58Encoder();

/** A base58 decode failure; `message` is the bs58 Debug form (without a prefix). */
export class Base58Error extends Error {
  override readonly name = "Base58Error";
}

export function decodeBase58(text: string): Uint8Array {
  let index = 0;
  for (const char of text) {
    if (!ALPHABET.includes(char)) {
      const code = char.codePointAt(0) ?? 0;
      throw new Base58Error(
        code > 0x7f
          ? `NonAsciiCharacter { index: ${index} }`
          : `InvalidCharacter { character: ${rustChar(char)}, index: ${index} }`,
      );
    }
    index += 1; // an alphabet character is one byte, as bs58 counts
  }
  return Uint8Array.from(base58.encode(text));
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
