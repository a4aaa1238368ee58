/**
 * USDG base units written as the API writes amounts, with all six decimals (1_500_000n is
 * "1.500000"): what the crash suites send and what the plaintext canaries search for.
 */
export function usdgDecimal(units: bigint): string {
  return `${units / 1_000_000n}.${(units % 1_000_000n).toString().padStart(6, "0")}`;
}
