/**
 * Every way the UI or the API might write a plaintext the network must never carry: an amount as
 * the decimal the UI shows, trimmed of trailing zeros, and in base units; a memo as typed and
 * URL-encoded; an account secret in its export form, URL-encoded, base64url, and as hex of the raw
 * 32 bytes. The recorder matches numbers only between non-digits, so a base-unit string inside a
 * longer number (a timestamp, a slot) is not a false alarm.
 */
const USDG_DECIMALS = 6n;
const UNIT = 10n ** USDG_DECIMALS;

/** `13.579246` for 13579246n base units. */
export function usdgDecimal(units: bigint): string {
  if (units < 0n) throw new Error("a negative amount has no USDG form");
  return `${units / UNIT}.${(units % UNIT).toString().padStart(Number(USDG_DECIMALS), "0")}`;
}

export function amountForms(units: bigint): string[] {
  const decimal = usdgDecimal(units);
  const trimmed = decimal.replace(/0+$/, "").replace(/\.$/, "");
  return [...new Set([decimal, trimmed, units.toString()])];
}

export function memoForms(memo: string): string[] {
  return [...new Set([memo, encodeURIComponent(memo)])];
}

/** The export format v1 is base64 of `[0x01][secret 32]`. */
export function secretForms(exported: string): string[] {
  const bytes = Buffer.from(exported, "base64");
  const raw = bytes.subarray(1);
  return [
    ...new Set([
      exported,
      encodeURIComponent(exported),
      bytes.toString("base64url"),
      raw.toString("base64"),
      raw.toString("base64url"),
      raw.toString("hex"),
    ]),
  ];
}
