import { describe, expect, it } from "vitest";
import { formatUnits, formatUsdg, MAX_U64, parseUsdg } from "./amounts";

describe("USDG amounts in the browser", () => {
  it("formats base units with six decimals, as the browser suite reads them", () => {
    expect(formatUsdg(12_345_678n)).toBe("12.345678 USDG");
    expect(formatUnits(0n)).toBe("0.000000");
    expect(formatUnits(1n)).toBe("0.000001");
    expect(formatUnits(MAX_U64)).toBe("18446744073709.551615");
  });

  it("parses what a holder types with the API's decimal rule, refusing the rest", () => {
    expect(parseUsdg("12.5")).toBe(12_500_000n);
    expect(parseUsdg(" 0.000001 ")).toBe(1n);
    expect(parseUsdg("18446744073709.551615")).toBe(MAX_U64);
    for (const bad of ["", "0", "0.0", "-1", "1.2345678", "01", "1e3", "18446744073709.551616", "1,5"]) {
      expect(parseUsdg(bad), bad).toBeNull();
    }
  });
});
