/**
 * Exact decimal amounts <-> u64 base units, with bigint only: a float never touches an amount.
 * `"1.000001"` at 6 decimals is 1000001 base units and formats back to `"1.000001"`.
 */

/** The largest u64, the ceiling of every on-chain amount. */
export const U64_MAX = 2n ** 64n - 1n;

/** Why an amount was refused. */
export type AmountErrorCode =
  | "not_a_number"
  | "negative_limit"
  | "too_many_decimals"
  | "limit_too_large"
  | "imprecise_number";

/** A refused amount: `code` for programs, `message` for people. */
export class AmountError extends Error {
  override readonly name = "AmountError";
  readonly code: AmountErrorCode;

  constructor(code: AmountErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Digits only, an optional fraction; no sign, exponent, spaces, `_`, or bare `.`. */
const DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/;

/** Doubles carry 15 significant decimal digits for sure; a JSON number with more is not exact. */
const MAX_EXACT_NUMBER_DIGITS = 15;

/**
 * Parses a decimal amount (a JSON number or a decimal string) into base units of a token with
 * `decimals` decimals. Strings: `[0-9]+(\.[0-9]+)?` exactly (`"1e3"`, `" 1"`, `"+1"`, `".5"`, `""`
 * are `not_a_number`; `"-1"` is `negative_limit`). Trailing zeros beyond `decimals` are accepted
 * (`"1.0000000"`), any other digit there is `too_many_decimals`; above u64::MAX base units is
 * `limit_too_large`. Numbers must be finite and non-negative, and are read through their shortest
 * round-trip spelling (`0.1` is `"0.1"`); one with more than 15 significant digits is
 * `imprecise_number` (the double may not be what was written: send a string).
 * Throws an `AmountError`, nothing else.
 */
export function parseDecimalAmount(value: unknown, decimals: number): bigint {
  const text = decimalText(value);
  const negative = text.startsWith("-") && DECIMAL.test(text.slice(1));
  if (negative) throw new AmountError("negative_limit", "must not be negative");
  const match = DECIMAL.exec(text);
  if (match === null) throw new AmountError("not_a_number", "must be a decimal number such as 12.5");
  const integer = (match[1] ?? "").replace(/^0+(?=.)/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > decimals) {
    throw new AmountError("too_many_decimals", `has more than ${decimals} decimals`);
  }
  // u64::MAX has 20 digits: a longer integer part is too large before any bigint is built.
  if (integer.length > 20) throw new AmountError("limit_too_large", "is too large");
  const units = BigInt(integer) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
  if (units > U64_MAX) throw new AmountError("limit_too_large", "is too large");
  return units;
}

/**
 * Formats base units as the shortest exact decimal string: no exponent, no trailing fractional
 * zeros (`1000001n` at 6 decimals is `"1.000001"`, `5000000n` is `"5"`). Throws a RangeError for a
 * negative amount.
 */
export function formatDecimalAmount(units: bigint, decimals: number): string {
  if (units < 0n) throw new RangeError(`an amount is never negative, got ${units}`);
  const scale = 10n ** BigInt(decimals);
  const integer = (units / scale).toString();
  const fraction = (units % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  return fraction === "" ? integer : `${integer}.${fraction}`;
}

function decimalText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new AmountError("not_a_number", "must be a decimal number such as 12.5");
  }
  if (value < 0) throw new AmountError("negative_limit", "must not be negative");
  const text = plainDecimal(value);
  const significant = text.replace(".", "").replace(/^0+/, "").replace(/0+$/, "");
  if (significant.length > MAX_EXACT_NUMBER_DIGITS) {
    throw new AmountError(
      "imprecise_number",
      `has more than ${MAX_EXACT_NUMBER_DIGITS} significant digits: send it as a decimal string`,
    );
  }
  return text;
}

/** A non-negative finite number's shortest round-trip spelling, exponent expanded (1e-7 -> 0.0000001). */
function plainDecimal(value: number): string {
  const text = String(value);
  const exponentAt = text.indexOf("e");
  if (exponentAt < 0) return text;
  const mantissa = text.slice(0, exponentAt);
  const exponent = Number(text.slice(exponentAt + 1));
  const [whole = "", fraction = ""] = mantissa.split(".");
  const digits = whole + fraction;
  const point = whole.length + exponent;
  if (point <= 0) return `0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + "0".repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}
