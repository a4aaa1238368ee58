/**
 * Spend policies: API units (spec 2.4: USDG decimals, asset symbols, `HH:MM-HH:MM`, recipient
 * pattern strings) <-> the program's units (u64 base units, mint addresses, minutes of the UTC day,
 * `RecipientPattern`). Encoding validates everything the program would refuse, plus what only the
 * API can know (unknown assets, over-precise amounts), before anything is sent; every refusal is a
 * `PolicyValidationError` with a `code` and the offending `field`.
 *
 * Amounts (`*_usdg`) are USDG: 6 decimals. The program compares one set of base units against
 * every allowed mint, so an asset whose mint has other decimals is refused (`unsupported_asset`). Defaults on creation: `allowed_recipients`
 * `[]` (any recipient), `active_hours` `"00:00-00:00"` (all day), `approval_window_seconds` 86400.
 */
import { type Address, getAddressDecoder, isNone, isSome, none, type Option, some } from "@solana/kit";
import type {
  Policy,
  PolicyParams,
  PolicyParamsArgs,
  PolicyUpdateParams,
  PolicyUpdateParamsArgs,
  RecipientPattern,
} from "../generated";
import { ActiveHoursError, ALL_DAY, formatActiveHours, parseActiveHours } from "./active-hours";
import { AmountError, formatDecimalAmount, parseDecimalAmount } from "./amounts";
import { formatRecipientPattern, parseRecipientPattern, RecipientPatternError } from "./recipient-patterns";

/** Decimals of the unit the `*_usdg` limits are written in (USDG). */
export const LIMIT_DECIMALS = 6;
export const MAX_ALLOWED_ASSETS = 4;
export const MAX_RECIPIENT_PATTERNS = 16;
export const DEFAULT_APPROVAL_WINDOW_SECONDS = 86_400;
export const MIN_APPROVAL_WINDOW_SECONDS = 1;
export const MAX_APPROVAL_WINDOW_SECONDS = 7 * 86_400;

/** A mint the service knows by symbol. */
export interface AssetInfo {
  readonly mint: Address;
  readonly decimals: number;
}

/** Symbol -> mint, e.g. `{ USDG: { mint, decimals: 6 } }`. Symbols match case-insensitively. */
export type AssetTable = Readonly<Record<string, AssetInfo>>;

/** A limit as the API accepts it: a JSON number or, for exactness, a decimal string. */
export type UsdgAmountInput = number | string;

/** A spend policy as the API accepts it (spec 2.4), for creation. */
export interface SpendPolicyInput {
  readonly daily_limit_usdg: UsdgAmountInput;
  readonly per_transaction_limit_usdg: UsdgAmountInput;
  readonly hitl_threshold_usdg: UsdgAmountInput;
  readonly assets: readonly string[];
  /** Default `[]`: any recipient. */
  readonly allowed_recipients?: readonly string[];
  /** Default `"00:00-00:00"`: all day. */
  readonly active_hours?: string;
  /** Default 86400 (24 h); 1 s to 7 days. */
  readonly approval_window_seconds?: number;
}

/** A change to a policy: only the fields present change. */
export type SpendPolicyUpdateInput = Partial<SpendPolicyInput>;

/** A spend policy as the API returns it: exact decimal strings, symbols, API pattern spellings. */
export interface SpendPolicyView {
  readonly daily_limit_usdg: string;
  readonly per_transaction_limit_usdg: string;
  readonly hitl_threshold_usdg: string;
  readonly assets: string[];
  readonly allowed_recipients: string[];
  readonly active_hours: string;
  readonly approval_window_seconds: number;
}

/** Why a policy was refused. */
export type PolicyValidationErrorCode =
  | "missing_field"
  | "not_a_number"
  | "negative_limit"
  | "too_many_decimals"
  | "limit_too_large"
  | "imprecise_number"
  | "malformed_active_hours"
  | "malformed_pattern"
  | "too_many_patterns"
  | "unknown_asset"
  | "unsupported_asset"
  | "duplicate_asset"
  | "too_many_assets"
  | "not_a_list"
  | "invalid_approval_window";

/** A refused policy field: `code` for programs, `field` (API name, `assets[2]`...), a message for people. */
export class PolicyValidationError extends Error {
  override readonly name = "PolicyValidationError";
  readonly code: PolicyValidationErrorCode;
  readonly field: string;

  constructor(code: PolicyValidationErrorCode, field: string, message: string) {
    super(`${field} ${message}`);
    this.code = code;
    this.field = field;
  }
}

/** What encoding and decoding need to know: the asset table. */
export interface PolicyCodecOptions {
  readonly assets: AssetTable;
}

/**
 * API policy -> `PolicyParams` for `agent_create`. Required: the three limits and `assets`; the
 * rest default (see the module doc). Throws a `PolicyValidationError` for the first bad field (limits,
 * assets, recipients, hours, approval window); never anything else, whatever the input.
 */
export function encodeSpendPolicy(input: SpendPolicyInput, options: PolicyCodecOptions): PolicyParamsArgs {
  const policy = requireObject(input);
  // Validated in the order of the fields below, so the first bad field is the one reported.
  const perTransactionLimit = encodeLimit(
    required(policy, "per_transaction_limit_usdg"),
    "per_transaction_limit_usdg",
  );
  const dailyLimit = encodeLimit(required(policy, "daily_limit_usdg"), "daily_limit_usdg");
  const hitlThreshold = encodeLimit(required(policy, "hitl_threshold_usdg"), "hitl_threshold_usdg");
  const allowedMints = encodeAssets(required(policy, "assets"), options.assets);
  const recipientPatterns = encodePatterns(policy.allowed_recipients ?? []);
  const window = encodeActiveHours(policy.active_hours ?? ALL_DAY);
  const approvalWindowSeconds = encodeApprovalWindow(
    policy.approval_window_seconds ?? DEFAULT_APPROVAL_WINDOW_SECONDS,
  );
  return {
    perTransactionLimit,
    dailyLimit,
    hitlThreshold,
    activeStartMinute: window.startMinute,
    activeEndMinute: window.endMinute,
    approvalWindowSeconds,
    allowedMints,
    recipientPatterns,
  };
}

/**
 * API partial policy -> `PolicyUpdateParams` for `policy_update`: each field present becomes
 * `Some`, each absent (or `undefined`) one `None`, so the program keeps its value. `active_hours`
 * sets both minutes. Validation as in `encodeSpendPolicy`.
 */
export function encodeSpendPolicyUpdate(
  input: SpendPolicyUpdateInput,
  options: PolicyCodecOptions,
): PolicyUpdateParamsArgs {
  const update = requireObject(input);
  const present = <K extends keyof SpendPolicyInput, T>(
    key: K,
    encode: (value: NonNullable<SpendPolicyInput[K]>) => T,
  ): Option<T> => {
    const value = update[key];
    return value === undefined ? none() : some(encode(value as NonNullable<SpendPolicyInput[K]>));
  };
  const window = present("active_hours", encodeActiveHours);
  return {
    perTransactionLimit: present("per_transaction_limit_usdg", (value) =>
      encodeLimit(value, "per_transaction_limit_usdg"),
    ),
    dailyLimit: present("daily_limit_usdg", (value) => encodeLimit(value, "daily_limit_usdg")),
    hitlThreshold: present("hitl_threshold_usdg", (value) => encodeLimit(value, "hitl_threshold_usdg")),
    activeStartMinute: isSome(window) ? some(window.value.startMinute) : none(),
    activeEndMinute: isSome(window) ? some(window.value.endMinute) : none(),
    approvalWindowSeconds: present("approval_window_seconds", encodeApprovalWindow),
    allowedMints: present("assets", (value) => encodeAssets(value, options.assets)),
    recipientPatterns: present("allowed_recipients", encodePatterns),
  };
}

/**
 * `PolicyParams` (or a policy account, through `policyParamsFromAccount`) -> the API view: limits
 * as exact decimal strings, mints as their table symbols (a mint missing from the table is shown
 * as its address), minutes as `HH:MM-HH:MM`, patterns in their API spelling.
 */
export function decodeSpendPolicy(params: PolicyParams, options: PolicyCodecOptions): SpendPolicyView {
  return {
    daily_limit_usdg: formatDecimalAmount(params.dailyLimit, LIMIT_DECIMALS),
    per_transaction_limit_usdg: formatDecimalAmount(params.perTransactionLimit, LIMIT_DECIMALS),
    hitl_threshold_usdg: formatDecimalAmount(params.hitlThreshold, LIMIT_DECIMALS),
    assets: params.allowedMints.map((mint) => symbolOf(mint, options.assets)),
    allowed_recipients: params.recipientPatterns.map(formatRecipientPattern),
    active_hours: decodeActiveHours(params.activeStartMinute, params.activeEndMinute),
    approval_window_seconds: params.approvalWindowSeconds,
  };
}

/**
 * `PolicyUpdateParams` -> the API fields it changes (the inverse of `encodeSpendPolicyUpdate`).
 * An update that sets only one of the two active-hours minutes has no API spelling and throws
 * `malformed_active_hours`.
 */
export function decodeSpendPolicyUpdate(
  params: PolicyUpdateParams,
  options: PolicyCodecOptions,
): Partial<SpendPolicyView> {
  const view: { -readonly [K in keyof SpendPolicyView]?: SpendPolicyView[K] } = {};
  if (isSome(params.dailyLimit))
    view.daily_limit_usdg = formatDecimalAmount(params.dailyLimit.value, LIMIT_DECIMALS);
  if (isSome(params.perTransactionLimit)) {
    view.per_transaction_limit_usdg = formatDecimalAmount(params.perTransactionLimit.value, LIMIT_DECIMALS);
  }
  if (isSome(params.hitlThreshold)) {
    view.hitl_threshold_usdg = formatDecimalAmount(params.hitlThreshold.value, LIMIT_DECIMALS);
  }
  if (isSome(params.allowedMints))
    view.assets = params.allowedMints.value.map((mint) => symbolOf(mint, options.assets));
  if (isSome(params.recipientPatterns)) {
    view.allowed_recipients = params.recipientPatterns.value.map(formatRecipientPattern);
  }
  if (isSome(params.activeStartMinute) && isSome(params.activeEndMinute)) {
    view.active_hours = decodeActiveHours(params.activeStartMinute.value, params.activeEndMinute.value);
  } else if (isSome(params.activeStartMinute) !== isSome(params.activeEndMinute)) {
    throw new PolicyValidationError(
      "malformed_active_hours",
      "active_hours",
      "sets only one end of the window",
    );
  }
  if (isSome(params.approvalWindowSeconds)) view.approval_window_seconds = params.approvalWindowSeconds.value;
  return view;
}

/** Whether an encoded update changes nothing (every field `None`). */
export function isEmptyPolicyUpdate(params: PolicyUpdateParams): boolean {
  return Object.values(params).every((value) => isNone(value as Option<unknown>));
}

const PATTERN_KINDS = ["Name", "Suffix", "Address"] as const;

/**
 * A policy account's stored fields -> `PolicyParams`: the first `mintCount` mints and
 * `patternCount` pattern slots (kind 0 name, 1 suffix, 2 address; `len` bytes of `value`).
 * Account bytes come from the chain, so counts and slots are checked; a bad one throws a
 * `PolicyValidationError` naming the slot.
 */
export function policyParamsFromAccount(policy: Policy): PolicyParams {
  if (policy.mintCount > MAX_ALLOWED_ASSETS) {
    throw new PolicyValidationError("too_many_assets", "assets", `holds ${policy.mintCount} mints on-chain`);
  }
  if (policy.patternCount > MAX_RECIPIENT_PATTERNS) {
    throw new PolicyValidationError(
      "too_many_patterns",
      "allowed_recipients",
      `holds ${policy.patternCount} patterns`,
    );
  }
  return {
    perTransactionLimit: policy.perTransactionLimit,
    dailyLimit: policy.dailyLimit,
    hitlThreshold: policy.hitlThreshold,
    activeStartMinute: policy.activeStartMinute,
    activeEndMinute: policy.activeEndMinute,
    approvalWindowSeconds: policy.approvalWindowSeconds,
    allowedMints: policy.allowedMints.slice(0, policy.mintCount),
    recipientPatterns: policy.recipientPatterns
      .slice(0, policy.patternCount)
      .map((slot, index): RecipientPattern => {
        const field = `allowed_recipients[${index}]`;
        const kind = PATTERN_KINDS[slot.kind];
        if (kind === undefined || slot.len > slot.value.length) {
          throw new PolicyValidationError(
            "malformed_pattern",
            field,
            `has kind ${slot.kind} and length ${slot.len}`,
          );
        }
        const bytes = slot.value.slice(0, slot.len);
        try {
          // Stored values are exactly what parseRecipientPattern produced, so reparsing their API
          // spelling both decodes and validates them.
          if (kind === "Address") return parseRecipientPattern(getAddressDecoder().decode(bytes));
          const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
          return parseRecipientPattern(kind === "Suffix" ? `*.${text}` : text);
        } catch (error) {
          throw new PolicyValidationError(
            "malformed_pattern",
            field,
            `is not a valid stored pattern (${String(error)})`,
          );
        }
      }),
  };
}

function requireObject<T>(input: T): T {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new PolicyValidationError("missing_field", "policy", "must be an object");
  }
  return input;
}

function required<K extends keyof SpendPolicyInput>(
  policy: SpendPolicyInput,
  key: K,
): NonNullable<SpendPolicyInput[K]> {
  const value = policy[key];
  if (value === undefined || value === null)
    throw new PolicyValidationError("missing_field", key, "is required");
  return value as NonNullable<SpendPolicyInput[K]>;
}

function encodeLimit(value: unknown, field: string): bigint {
  try {
    return parseDecimalAmount(value, LIMIT_DECIMALS);
  } catch (error) {
    if (error instanceof AmountError) throw new PolicyValidationError(error.code, field, error.message);
    throw error;
  }
}

function encodeActiveHours(value: unknown): { startMinute: number; endMinute: number } {
  try {
    return parseActiveHours(value);
  } catch (error) {
    if (error instanceof ActiveHoursError) {
      throw new PolicyValidationError("malformed_active_hours", "active_hours", error.message);
    }
    throw error;
  }
}

function decodeActiveHours(startMinute: number, endMinute: number): string {
  try {
    return formatActiveHours({ startMinute, endMinute });
  } catch (error) {
    if (error instanceof ActiveHoursError) {
      throw new PolicyValidationError("malformed_active_hours", "active_hours", error.message);
    }
    throw error;
  }
}

function encodeApprovalWindow(value: unknown): number {
  if (
    typeof value !== "number" ||
    !Number.isInteger(value) ||
    value < MIN_APPROVAL_WINDOW_SECONDS ||
    value > MAX_APPROVAL_WINDOW_SECONDS
  ) {
    throw new PolicyValidationError(
      "invalid_approval_window",
      "approval_window_seconds",
      `must be a whole number of seconds from ${MIN_APPROVAL_WINDOW_SECONDS} to ${MAX_APPROVAL_WINDOW_SECONDS}`,
    );
  }
  return value;
}

/** `value` as a list of at most `limit.max` entries: `not_a_list`, or `limit.code` naming the maximum. */
function requireList(
  value: unknown,
  field: string,
  limit: { readonly max: number; readonly code: PolicyValidationErrorCode; readonly of: string },
): readonly unknown[] {
  if (!Array.isArray(value)) throw new PolicyValidationError("not_a_list", field, "must be a list");
  if (value.length > limit.max) {
    throw new PolicyValidationError(limit.code, field, `allows at most ${limit.max} ${limit.of}`);
  }
  return value;
}

/** The program refuses the all-zero mint (InvalidMint); only a misconfigured asset table holds it. */
const ZERO_MINT = "11111111111111111111111111111111";

function encodeAssets(value: unknown, table: AssetTable): Address[] {
  const symbols = requireList(value, "assets", {
    max: MAX_ALLOWED_ASSETS,
    code: "too_many_assets",
    of: "assets",
  });
  const mints: Address[] = [];
  symbols.forEach((symbol, index) => {
    const field = `assets[${index}]`;
    const asset = typeof symbol === "string" ? assetBySymbol(symbol, table) : undefined;
    if (asset === undefined) throw new PolicyValidationError("unknown_asset", field, `is not a known asset`);
    if (asset.decimals !== LIMIT_DECIMALS) {
      // The program compares one set of base units against every allowed mint.
      throw new PolicyValidationError(
        "unsupported_asset",
        field,
        `has ${asset.decimals} decimals; policy limits are ${LIMIT_DECIMALS}-decimal base units`,
      );
    }
    if (asset.mint === ZERO_MINT) {
      throw new PolicyValidationError("unsupported_asset", field, "has the zero address as its mint");
    }
    if (mints.includes(asset.mint))
      throw new PolicyValidationError("duplicate_asset", field, "is listed twice");
    mints.push(asset.mint);
  });
  return mints;
}

function assetBySymbol(symbol: string, table: AssetTable): AssetInfo | undefined {
  const wanted = symbol.toUpperCase();
  const key = Object.keys(table).find((candidate) => candidate.toUpperCase() === wanted);
  return key === undefined ? undefined : table[key];
}

function symbolOf(mint: Address, table: AssetTable): string {
  return Object.entries(table).find(([, asset]) => asset.mint === mint)?.[0] ?? mint;
}

function encodePatterns(value: unknown): RecipientPattern[] {
  const patterns = requireList(value, "allowed_recipients", {
    max: MAX_RECIPIENT_PATTERNS,
    code: "too_many_patterns",
    of: "patterns",
  });
  return patterns.map((pattern, index) => {
    try {
      return parseRecipientPattern(pattern);
    } catch (error) {
      if (error instanceof RecipientPatternError) {
        throw new PolicyValidationError("malformed_pattern", `allowed_recipients[${index}]`, error.message);
      }
      throw error;
    }
  });
}
