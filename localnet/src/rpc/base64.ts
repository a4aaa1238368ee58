/**
 * Strict standard base64 decoding of RPC parameters (padded, canonical) with the error vocabulary of
 * Rust's `base64` crate.
 *
 * Kit's codec does the conversion (and all encoding: `getBase64Decoder().decode(bytes)`), but on
 * Node it decodes like `Buffer.from(text, "base64")`: padding is not checked and a non-canonical last
 * symbol passes, which would let a garbled transaction reach the cluster as different bytes. Agave
 * rejects those instead, with e.g. `invalid base64 encoding: InvalidByte(4, 33)`; this decoder
 * validates first and reports the same way, then lets kit do the decoding.
 */
import { getBase64Decoder, getBase64Encoder } from "@solana/kit";

/** A base64 decode failure; `message` is the base64-crate Debug form (without a prefix). */
export class Base64Error extends Error {
  override readonly name = "Base64Error";
}

const PAD = 0x3d;
const fromBase64 = getBase64Encoder();
const toBase64 = getBase64Decoder();

function isAlphabet(byte: number): boolean {
  return (
    (byte >= 0x41 && byte <= 0x5a) || // A-Z
    (byte >= 0x61 && byte <= 0x7a) || // a-z
    (byte >= 0x30 && byte <= 0x39) || // 0-9
    byte === 0x2b || // +
    byte === 0x2f // /
  );
}

export function decodeBase64(text: string): Uint8Array {
  const input = Buffer.from(text, "utf8");
  let symbols = input.length;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i] as number;
    if (byte === PAD) {
      if (symbols === input.length) symbols = i;
      continue;
    }
    // A symbol after padding began, or a byte outside the alphabet.
    if (symbols !== input.length) throw new Base64Error(`InvalidByte(${symbols}, ${PAD})`);
    if (!isAlphabet(byte)) throw new Base64Error(`InvalidByte(${i}, ${byte})`);
  }
  if (symbols % 4 === 1) throw new Base64Error(`InvalidLength(${symbols})`);
  const padding = input.length - symbols;
  if (padding !== (4 - (symbols % 4)) % 4) throw new Base64Error("InvalidPadding");
  const decoded = Uint8Array.from(fromBase64.encode(text));
  // Canonical form: the last symbol may not carry bits beyond the decoded bytes.
  if (symbols > 0 && toBase64.decode(decoded) !== text) {
    throw new Base64Error(`InvalidLastSymbol(${symbols - 1}, ${input[symbols - 1]})`);
  }
  return decoded;
}
