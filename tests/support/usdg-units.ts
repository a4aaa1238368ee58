/** USDG amounts in the suites: base units (six decimals) and the API's way of writing them. */

export const UNITS_PER_USDG = 1_000_000n;

/** `whole` USDG in base units. */
export const usdg = (whole: number | bigint): bigint => BigInt(whole) * UNITS_PER_USDG;

/**
 * Base units written as the API writes amounts, with all six decimals (1_500_000n is "1.500000"):
 * what the crash suites send and what the plaintext canaries search for.
 */
export function usdgDecimal(units: bigint): string {
  return `${units / UNITS_PER_USDG}.${(units % UNITS_PER_USDG).toString().padStart(6, "0")}`;
}
