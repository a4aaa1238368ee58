/** USDG amounts as the API writes them ("12.50") to base units (6 decimals), exactly. */
const USDG_DECIMALS = 6;

export function parseUsdg(text: string): bigint {
  const match = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(text);
  if (match === null) throw new Error(`not a USDG amount: ${text} (e.g. 12.50, at most 6 decimals)`);
  const whole = BigInt(match[1] as string);
  const fraction = BigInt((match[2] ?? "").padEnd(USDG_DECIMALS, "0"));
  const amount = whole * 10n ** BigInt(USDG_DECIMALS) + fraction;
  if (amount === 0n) throw new Error("the amount must be more than zero");
  return amount;
}
