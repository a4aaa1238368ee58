import { address, getAddressDecoder } from "@solana/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatRecipientPattern, parseRecipientPattern, RecipientPatternError } from "./recipient-patterns";

const WALLET = address("8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf");

describe("recipient patterns", () => {
  it("parses names, suffixes and addresses into the program's enum", () => {
    // Given the API's three spellings / When parsed / Then the program's variants, names normalised
    expect(parseRecipientPattern("acme")).toEqual({ __kind: "Name", fields: ["acme"] });
    expect(parseRecipientPattern("@Acme")).toEqual({ __kind: "Name", fields: ["acme"] });
    expect(parseRecipientPattern("acme/payroll-bot")).toEqual({
      __kind: "Name",
      fields: ["acme/payroll-bot"],
    });
    expect(parseRecipientPattern("*.acme")).toEqual({ __kind: "Suffix", fields: ["acme"] });
    expect(parseRecipientPattern("*.Pay.Acme")).toEqual({ __kind: "Suffix", fields: ["pay.acme"] });
    expect(parseRecipientPattern(WALLET)).toEqual({ __kind: "Address", fields: [WALLET] });
    expect(parseRecipientPattern(` ${WALLET} `)).toEqual({ __kind: "Address", fields: [WALLET] });
  });

  it("treats a string that is a valid address as an address, even if it also fits the handle grammar", () => {
    expect(parseRecipientPattern("11111111111111111111111111111112")).toEqual({
      __kind: "Address",
      fields: ["11111111111111111111111111111112"],
    });
  });

  it("refuses the zero address, which the program refuses as a pattern", () => {
    expect(() => parseRecipientPattern("11111111111111111111111111111111")).toThrow(RecipientPatternError);
  });

  it("refuses malformed patterns", () => {
    for (const text of [
      "",
      "*",
      "*.",
      "*acme",
      "*.@acme",
      "*.acme/bot",
      "a*b",
      "ac me",
      "pay..acme",
      "x".repeat(33),
      "acme/",
    ]) {
      expect(() => parseRecipientPattern(text), JSON.stringify(text)).toThrow(RecipientPatternError);
    }
    expect(() => parseRecipientPattern(42)).toThrow(RecipientPatternError);
  });

  it("formats each variant back to its API spelling", () => {
    expect(formatRecipientPattern({ __kind: "Name", fields: ["acme"] })).toBe("acme");
    expect(formatRecipientPattern({ __kind: "Suffix", fields: ["acme"] })).toBe("*.acme");
    expect(formatRecipientPattern({ __kind: "Address", fields: [WALLET] })).toBe(WALLET);
  });

  it("round-trips canonical patterns (property)", () => {
    const handle = fc
      .array(fc.stringMatching(/^[a-z0-9_-]{1,8}$/), { minLength: 1, maxLength: 3 })
      .map((labels) => labels.join("."))
      .filter((text) => text.length <= 32);
    const pattern = fc.oneof(
      handle,
      handle.map((text) => `*.${text}`),
      fc.tuple(handle, fc.stringMatching(/^[a-z0-9_-]{1,31}$/)).map(([owner, name]) => `${owner}/${name}`),
      fc
        .uint8Array({ minLength: 32, maxLength: 32 })
        .map((bytes) => getAddressDecoder().decode(bytes) as string),
    );
    fc.assert(
      fc.property(pattern, (text) => {
        expect(formatRecipientPattern(parseRecipientPattern(text))).toBe(text);
      }),
    );
  });

  it("either parses any string or throws a RecipientPatternError (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^(\*\.?)?@?[A-Za-z0-9_.\-/*]{0,40}$/)), (text) => {
        try {
          const pattern = parseRecipientPattern(text);
          expect(["Name", "Suffix", "Address"]).toContain(pattern.__kind);
          expect(new TextEncoder().encode(pattern.fields[0]).length).toBeLessThanOrEqual(64);
        } catch (error) {
          expect(error).toBeInstanceOf(RecipientPatternError);
        }
      }),
    );
  });
});
