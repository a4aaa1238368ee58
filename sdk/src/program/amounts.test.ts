import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AmountError, formatDecimalAmount, parseDecimalAmount, U64_MAX } from "./amounts";

function codeOf(value: unknown, decimals = 6): string | undefined {
  try {
    parseDecimalAmount(value, decimals);
    return undefined;
  } catch (error) {
    if (error instanceof AmountError) return error.code;
    throw error;
  }
}

describe("decimal amounts", () => {
  it("parses decimal strings and numbers exactly into base units", () => {
    // Given amounts in USDG / When parsed at 6 decimals / Then exact base units, no float on the way
    expect(parseDecimalAmount("1.000001", 6)).toBe(1_000_001n);
    expect(parseDecimalAmount(1.000001, 6)).toBe(1_000_001n);
    expect(parseDecimalAmount("0", 6)).toBe(0n);
    expect(parseDecimalAmount(0.1, 6)).toBe(100_000n);
    expect(parseDecimalAmount("007.50", 6)).toBe(7_500_000n);
    expect(parseDecimalAmount("1.0000000", 6)).toBe(1_000_000n);
    expect(parseDecimalAmount(1e-6, 6)).toBe(1n);
    expect(parseDecimalAmount("18446744073709.551615", 6)).toBe(U64_MAX);
  });

  it("formats base units back without rounding or exponents", () => {
    expect(formatDecimalAmount(1_000_001n, 6)).toBe("1.000001");
    expect(formatDecimalAmount(5_000_000n, 6)).toBe("5");
    expect(formatDecimalAmount(1n, 6)).toBe("0.000001");
    expect(formatDecimalAmount(U64_MAX, 6)).toBe("18446744073709.551615");
    expect(formatDecimalAmount(7n, 0)).toBe("7");
    expect(() => formatDecimalAmount(-1n, 6)).toThrow(RangeError);
  });

  it("refuses negative, non-numeric, over-precise, too large and imprecise values with their codes", () => {
    expect(codeOf("-1")).toBe("negative_limit");
    expect(codeOf(-0.5)).toBe("negative_limit");
    expect(codeOf("-0")).toBe("negative_limit");
    for (const text of ["", " 1", "1 ", "1e3", "+1", ".5", "1.", "0x10", "1_000", "NaN", "Infinity", "١"]) {
      expect(codeOf(text), JSON.stringify(text)).toBe("not_a_number");
    }
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, null, undefined, true, {}, [], 1n]) {
      expect(codeOf(value), String(value)).toBe("not_a_number");
    }
    expect(codeOf("1.0000001")).toBe("too_many_decimals");
    expect(codeOf(1e-7)).toBe("too_many_decimals");
    expect(codeOf("18446744073709.551616")).toBe("limit_too_large");
    expect(codeOf("9".repeat(1000))).toBe("limit_too_large");
    expect(codeOf(1e21)).toBe("limit_too_large");
    expect(codeOf(0.1 + 0.2)).toBe("imprecise_number");
    expect(codeOf(12_345_678_901_234.56)).toBe("imprecise_number");
  });

  it("round-trips every u64 through its decimal string at any decimals (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), fc.integer({ min: 0, max: 9 }), (units, decimals) => {
        const text = formatDecimalAmount(units, decimals);
        expect(parseDecimalAmount(text, decimals)).toBe(units);
        expect(text).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
      }),
    );
  });

  it("reads numbers with up to 15 significant digits as the decimal they print as (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.integer({ min: 0, max: 6 }),
        (mantissa, scale) => {
          const value = mantissa / 10 ** scale;
          expect(parseDecimalAmount(value, 6)).toBe(parseDecimalAmount(String(value), 6));
        },
      ),
    );
  });

  it("either parses any string into [0, u64::MAX] or throws an AmountError (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.stringMatching(/^-?[0-9]{0,22}(\.[0-9]{0,9})?$/),
          fc.double(),
          fc.anything(),
        ),
        (value) => {
          try {
            const units = parseDecimalAmount(value, 6);
            expect(units >= 0n && units <= U64_MAX).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(AmountError);
          }
        },
      ),
    );
  });
});
