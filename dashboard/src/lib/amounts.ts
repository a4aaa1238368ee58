/**
 * USDG amounts (6 decimals) as base units (bigint) in the browser: formatted for display as
 * `12.345678 USDG` (always six decimals, the form the browser suite reads), parsed from what a
 * holder types with the API's own decimal rule. No floating point touches an amount.
 */
export const USDG_DECIMALS = 6;
const SCALE = 10n ** BigInt(USDG_DECIMALS);
export const MAX_U64 = (1n << 64n) - 1n;

/** `12345678n` -> `"12.345678"` */
export function formatUnits(units: bigint): string {
  if (units < 0n) throw new RangeError("a USDG amount is never negative");
  const whole = units / SCALE;
  const fraction = (units % SCALE).toString().padStart(USDG_DECIMALS, "0");
  return `${whole}.${fraction}`;
}

export function formatUsdg(units: bigint): string {
  return `${formatUnits(units)} USDG`;
}

/** The API's decimal string rule (sdk ZDecimalAmount), limited to USDG's six places. */
const DECIMAL = /^(0|[1-9][0-9]{0,19})(\.[0-9]{1,6})?$/;

/** `"12.5"` -> `12500000n`; null when the text is not a positive USDG amount that fits a u64. */
export function parseUsdg(text: string): bigint | null {
  const trimmed = text.trim();
  const match = DECIMAL.exec(trimmed);
  if (match === null) return null;
  const whole = BigInt(match[1] ?? "0");
  const fraction = BigInt((match[2] ?? ".").slice(1).padEnd(USDG_DECIMALS, "0"));
  const units = whole * SCALE + fraction;
  if (units === 0n || units > MAX_U64) return null;
  return units;
}
