import { getBase58Decoder, getBase58Encoder, getBase64Decoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { Base58Error, decodeBase58 } from "./base58";
import { Base64Error, decodeBase64 } from "./base64";
import { stringifyJson } from "./json-bigint";

/** Deterministic pseudo-random bytes, with leading zeros now and then (base58's edge case). */
function samples(): Uint8Array[] {
  let seed = 7;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed;
  };
  const out: Uint8Array[] = [new Uint8Array(), new Uint8Array([0]), new Uint8Array([0, 0, 1])];
  for (let i = 0; i < 300; i++) {
    const bytes = Uint8Array.from({ length: next() % 80 }, () => next() & 0xff);
    if (i % 5 === 0 && bytes.length > 2) bytes.fill(0, 0, 2);
    out.push(bytes);
  }
  return out;
}

describe("base58", () => {
  it("Given random byte strings, When encoded with @solana/kit and decoded strictly, Then they match kit's codec and round-trip", () => {
    for (const bytes of samples()) {
      const text = getBase58Decoder().decode(bytes);
      expect(decodeBase58(text)).toEqual(bytes);
      expect(decodeBase58(text)).toEqual(new Uint8Array(getBase58Encoder().encode(text)));
    }
  });

  it("Given a character outside the alphabet, When decoded, Then the error reads like the bs58 crate", () => {
    expect(() => decodeBase58("abcl0")).toThrow(
      new Base58Error("InvalidCharacter { character: 'l', index: 3 }"),
    );
    expect(() => decodeBase58("ab€")).toThrow(new Base58Error("NonAsciiCharacter { index: 2 }"));
  });
});

describe("base64", () => {
  it("Given random byte strings, When encoded with @solana/kit and decoded strictly, Then they round-trip", () => {
    for (const bytes of samples()) expect(decodeBase64(getBase64Decoder().decode(bytes))).toEqual(bytes);
  });

  it("Given malformed base64, When decoded strictly, Then each fault is named like the base64 crate", () => {
    expect(() => decodeBase64("AQI!")).toThrow(new Base64Error("InvalidByte(3, 33)"));
    expect(() => decodeBase64("AQ=I")).toThrow(new Base64Error("InvalidByte(2, 61)"));
    expect(() => decodeBase64("AQIDB")).toThrow(new Base64Error("InvalidLength(5)"));
    expect(() => decodeBase64("AQI")).toThrow(new Base64Error("InvalidPadding"));
    expect(() => decodeBase64("AR==")).toThrow(new Base64Error("InvalidLastSymbol(1, 82)"));
  });
});

describe("stringifyJson", () => {
  it("Given bigints beyond 2^53, When serialized, Then they are bare JSON numbers with every digit", () => {
    const text = stringifyJson({
      rentEpoch: 18_446_744_073_709_551_615n,
      list: [1n, undefined],
      skip: undefined,
    });
    expect(text).toBe('{"rentEpoch":18446744073709551615,"list":[1,null]}');
  });
});
