import { type Address, address, getAddressDecoder, getAddressEncoder, none, some } from "@solana/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  getPolicyDecoder,
  getPolicyEncoder,
  getPolicyParamsDecoder,
  getPolicyParamsEncoder,
  getPolicyUpdateParamsDecoder,
  getPolicyUpdateParamsEncoder,
  type PolicyParams,
} from "../generated";
import {
  type AssetTable,
  DEFAULT_APPROVAL_WINDOW_SECONDS,
  decodeSpendPolicy,
  decodeSpendPolicyUpdate,
  encodeSpendPolicy,
  encodeSpendPolicyUpdate,
  isEmptyPolicyUpdate,
  PolicyValidationError,
  type PolicyValidationErrorCode,
  policyParamsFromAccount,
  type SpendPolicyInput,
} from "./policy-codec";

const USDG = address("6Tq3cVBZfqLdUk1szjxGkgYMmovYBnjwXhrzQoZJHi9p");
const EURC = address("HzwqbKZw8HxMN6bF2yFZNrht3c2iXXzpKcFu7uBEDKtr");
const WSOL = address("So11111111111111111111111111111111111111112");
const ASSETS: AssetTable = {
  USDG: { mint: USDG, decimals: 6 },
  EURC: { mint: EURC, decimals: 6 },
  WSOL: { mint: WSOL, decimals: 9 },
};
const OPTIONS = { assets: ASSETS };
const WALLET = address("8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf");

const BASE: SpendPolicyInput = {
  daily_limit_usdg: "1000",
  per_transaction_limit_usdg: 250.5,
  hitl_threshold_usdg: "100.000001",
  assets: ["USDG"],
  allowed_recipients: ["acme", "*.acme", "@Bob", WALLET],
  active_hours: "09:00-17:30",
  approval_window_seconds: 3600,
};

function refusal(action: () => unknown): { code: PolicyValidationErrorCode; field: string } | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    if (error instanceof PolicyValidationError) return { code: error.code, field: error.field };
    throw error;
  }
}

/** encode -> Borsh bytes -> decode, as the program would receive and store it. */
function throughBorsh(input: SpendPolicyInput): PolicyParams {
  return getPolicyParamsDecoder().decode(getPolicyParamsEncoder().encode(encodeSpendPolicy(input, OPTIONS)));
}

describe("spend policy codec", () => {
  it("encodes API units into on-chain units", () => {
    // Given the spec's policy fields / When encoded / Then base units, mints, minutes and patterns
    expect(encodeSpendPolicy(BASE, OPTIONS)).toEqual({
      perTransactionLimit: 250_500_000n,
      dailyLimit: 1_000_000_000n,
      hitlThreshold: 100_000_001n,
      activeStartMinute: 540,
      activeEndMinute: 1050,
      approvalWindowSeconds: 3600,
      allowedMints: [USDG],
      recipientPatterns: [
        { __kind: "Name", fields: ["acme"] },
        { __kind: "Suffix", fields: ["acme"] },
        { __kind: "Name", fields: ["bob"] },
        { __kind: "Address", fields: [WALLET] },
      ],
    });
  });

  it("defaults recipients to any, hours to all day and the approval window to 24 h", () => {
    const params = encodeSpendPolicy(
      { daily_limit_usdg: 10, per_transaction_limit_usdg: 5, hitl_threshold_usdg: 1, assets: ["usdg"] },
      OPTIONS,
    );
    expect(params).toMatchObject({
      activeStartMinute: 0,
      activeEndMinute: 0,
      approvalWindowSeconds: DEFAULT_APPROVAL_WINDOW_SECONDS,
      recipientPatterns: [],
      allowedMints: [USDG],
    });
  });

  it("decodes back to exact decimal strings, symbols and API spellings", () => {
    expect(decodeSpendPolicy(throughBorsh(BASE), OPTIONS)).toEqual({
      daily_limit_usdg: "1000",
      per_transaction_limit_usdg: "250.5",
      hitl_threshold_usdg: "100.000001",
      assets: ["USDG"],
      allowed_recipients: ["acme", "*.acme", "bob", WALLET],
      active_hours: "09:00-17:30",
      approval_window_seconds: 3600,
    });
  });

  it("shows a mint missing from the asset table as its address", () => {
    const params = { ...throughBorsh(BASE), allowedMints: [WALLET] };
    expect(decodeSpendPolicy(params, OPTIONS).assets).toEqual([WALLET]);
  });

  it("refuses each kind of bad field with its code and field", () => {
    const cases: [Partial<Record<keyof SpendPolicyInput, unknown>>, PolicyValidationErrorCode, string][] = [
      [{ per_transaction_limit_usdg: -1 }, "negative_limit", "per_transaction_limit_usdg"],
      [{ daily_limit_usdg: "abc" }, "not_a_number", "daily_limit_usdg"],
      [{ daily_limit_usdg: Number.NaN }, "not_a_number", "daily_limit_usdg"],
      [{ daily_limit_usdg: "1e3" }, "not_a_number", "daily_limit_usdg"],
      [{ hitl_threshold_usdg: "0.0000001" }, "too_many_decimals", "hitl_threshold_usdg"],
      [{ hitl_threshold_usdg: "18446744073710" }, "limit_too_large", "hitl_threshold_usdg"],
      [{ daily_limit_usdg: 0.1 + 0.2 }, "imprecise_number", "daily_limit_usdg"],
      [{ daily_limit_usdg: undefined }, "missing_field", "daily_limit_usdg"],
      [{ assets: undefined }, "missing_field", "assets"],
      [{ assets: "USDG" }, "not_a_list", "assets"],
      [{ assets: ["USDG", "DOGE"] }, "unknown_asset", "assets[1]"],
      [{ assets: ["USDG", "usdg"] }, "duplicate_asset", "assets[1]"],
      [{ assets: ["USDG", "WSOL"] }, "unsupported_asset", "assets[1]"],
      [{ assets: ["USDG", "EURC", "USDG", "EURC", "USDG"] }, "too_many_assets", "assets"],
      [{ allowed_recipients: ["acme", "*."] }, "malformed_pattern", "allowed_recipients[1]"],
      [
        { allowed_recipients: Array.from({ length: 17 }, (_, i) => `a${i}`) },
        "too_many_patterns",
        "allowed_recipients",
      ],
      [{ active_hours: "24:00-01:00" }, "malformed_active_hours", "active_hours"],
      [{ active_hours: "9:00-17:00" }, "malformed_active_hours", "active_hours"],
      [{ active_hours: "12:60-13:00" }, "malformed_active_hours", "active_hours"],
      [{ approval_window_seconds: 0 }, "invalid_approval_window", "approval_window_seconds"],
      [{ approval_window_seconds: 604_801 }, "invalid_approval_window", "approval_window_seconds"],
      [{ approval_window_seconds: 1.5 }, "invalid_approval_window", "approval_window_seconds"],
    ];
    for (const [change, code, field] of cases) {
      const input = { ...BASE, ...change } as SpendPolicyInput;
      expect(
        refusal(() => encodeSpendPolicy(input, OPTIONS)),
        JSON.stringify(change),
      ).toEqual({ code, field });
    }
    expect(refusal(() => encodeSpendPolicy(null as unknown as SpendPolicyInput, OPTIONS))?.code).toBe(
      "missing_field",
    );
  });

  it("accepts the boundaries: 16 patterns, 4 assets, 1 s and 7 days, u64::MAX base units", () => {
    const assets = {
      A: { mint: USDG, decimals: 6 },
      B: { mint: EURC, decimals: 6 },
      C: { mint: WALLET, decimals: 6 },
    };
    const table = { ...assets, D: { mint: address("11111111111111111111111111111112"), decimals: 6 } };
    const input = {
      ...BASE,
      daily_limit_usdg: "18446744073709.551615",
      assets: ["A", "B", "C", "D"],
      allowed_recipients: Array.from({ length: 16 }, (_, i) => `a${i}`),
    };
    expect(
      encodeSpendPolicy({ ...input, approval_window_seconds: 1 }, { assets: table }).allowedMints,
    ).toHaveLength(4);
    expect(
      encodeSpendPolicy({ ...input, approval_window_seconds: 604_800 }, { assets: table }).dailyLimit,
    ).toBe(2n ** 64n - 1n);
  });

  it("refuses an asset whose mint is the zero address (a misconfigured table; the program refuses it)", () => {
    const table = { USDG: { mint: address("11111111111111111111111111111111"), decimals: 6 } };
    expect(refusal(() => encodeSpendPolicy({ ...BASE, assets: ["USDG"] }, { assets: table }))?.code).toBe(
      "unsupported_asset",
    );
  });

  it("encodes a partial update with only the fields present", () => {
    // Given an update of the daily limit and the hours only
    const update = encodeSpendPolicyUpdate(
      { daily_limit_usdg: "1.000001", active_hours: "22:00-06:00" },
      OPTIONS,
    );
    // Then only those are Some, and the Borsh bytes carry the rest as None
    expect(update).toEqual({
      perTransactionLimit: none(),
      dailyLimit: some(1_000_001n),
      hitlThreshold: none(),
      activeStartMinute: some(1320),
      activeEndMinute: some(360),
      approvalWindowSeconds: none(),
      allowedMints: none(),
      recipientPatterns: none(),
    });
    const decoded = getPolicyUpdateParamsDecoder().decode(getPolicyUpdateParamsEncoder().encode(update));
    expect(decodeSpendPolicyUpdate(decoded, OPTIONS)).toEqual({
      daily_limit_usdg: "1.000001",
      active_hours: "22:00-06:00",
    });
    expect(isEmptyPolicyUpdate(decoded)).toBe(false);
    expect(isEmptyPolicyUpdate(encodeSpendPolicyUpdate({}, OPTIONS) as never)).toBe(true);
  });

  it("validates the fields of a partial update like a whole policy", () => {
    expect(refusal(() => encodeSpendPolicyUpdate({ assets: ["DOGE"] }, OPTIONS))).toEqual({
      code: "unknown_asset",
      field: "assets[0]",
    });
    expect(refusal(() => encodeSpendPolicyUpdate({ daily_limit_usdg: null as never }, OPTIONS))?.code).toBe(
      "not_a_number",
    );
  });

  it("reads a policy account's stored slots back into the API view", () => {
    // Given the account bytes the program would store for BASE
    const params = encodeSpendPolicy(BASE, OPTIONS);
    const slots = params.recipientPatterns.map((pattern) => {
      const kind = { Name: 0, Suffix: 1, Address: 2 }[pattern.__kind];
      const bytes =
        pattern.__kind === "Address"
          ? new Uint8Array(getAddressEncoder().encode(pattern.fields[0]))
          : new TextEncoder().encode(pattern.fields[0]);
      const value = new Uint8Array(64);
      value.set(bytes);
      return { kind, len: bytes.length, value };
    });
    const emptySlot = { kind: 0, len: 0, value: new Uint8Array(64) };
    const account = getPolicyDecoder().decode(
      getPolicyEncoder().encode({
        agent: WALLET,
        version: 1,
        activeStartMinute: 540,
        activeEndMinute: 1050,
        perTransactionLimit: params.perTransactionLimit,
        dailyLimit: params.dailyLimit,
        hitlThreshold: params.hitlThreshold,
        approvalWindowSeconds: 3600,
        mintCount: 1,
        patternCount: slots.length,
        bump: 255,
        padding: new Uint8Array(1),
        dayIndex: 0,
        spentToday: 0,
        updatedAt: 0,
        allowedMints: [USDG, ...Array<Address>(3).fill(address("11111111111111111111111111111111"))],
        recipientPatterns: [...slots, ...Array(16 - slots.length).fill(emptySlot)],
        spendCiphertext: new Uint8Array(64),
        spendPubkey: new Uint8Array(32),
        spendDecryptable: new Uint8Array(36),
        reserved: new Uint8Array(124),
      }),
    );
    // When read through policyParamsFromAccount / Then the same view as from the args
    expect(decodeSpendPolicy(policyParamsFromAccount(account), OPTIONS)).toEqual(
      decodeSpendPolicy(throughBorsh(BASE), OPTIONS),
    );
    // And a corrupt slot is refused, not misread
    const corrupt = {
      ...account,
      recipientPatterns: [
        { kind: 7, len: 3, value: new Uint8Array(64) },
        ...account.recipientPatterns.slice(1),
      ],
    };
    expect(refusal(() => policyParamsFromAccount(corrupt))).toEqual({
      code: "malformed_pattern",
      field: "allowed_recipients[0]",
    });
  });

  it("round-trips every valid policy through encode, Borsh and decode (property)", () => {
    fc.assert(
      fc.property(validPolicies(), (policy) => {
        expect(decodeSpendPolicy(throughBorsh(policy), OPTIONS)).toEqual(policy);
      }),
    );
  });

  it("round-trips every valid partial update (property)", () => {
    fc.assert(
      fc.property(
        validPolicies().chain((policy) => fc.subarray(Object.keys(policy)).map((keys) => pick(policy, keys))),
        (update) => {
          const bytes = getPolicyUpdateParamsEncoder().encode(encodeSpendPolicyUpdate(update, OPTIONS));
          expect(decodeSpendPolicyUpdate(getPolicyUpdateParamsDecoder().decode(bytes), OPTIONS)).toEqual(
            update,
          );
        },
      ),
    );
  });

  it("either encodes any input or throws a PolicyValidationError, nothing else (property)", () => {
    const field = fc.oneof(fc.anything(), fc.string(), fc.double(), fc.array(fc.string(), { maxLength: 20 }));
    fc.assert(
      fc.property(
        fc.record(
          {
            daily_limit_usdg: field,
            per_transaction_limit_usdg: field,
            hitl_threshold_usdg: field,
            assets: fc.oneof(field, fc.array(fc.constantFrom("USDG", "EURC", "usdg", "X"), { maxLength: 6 })),
            allowed_recipients: field,
            active_hours: field,
            approval_window_seconds: field,
          },
          { requiredKeys: [] },
        ),
        (input) => {
          for (const encode of [encodeSpendPolicy, encodeSpendPolicyUpdate]) {
            try {
              encode(input as SpendPolicyInput, OPTIONS);
            } catch (error) {
              expect(error).toBeInstanceOf(PolicyValidationError);
            }
          }
        },
      ),
    );
  });
});

function pick<T extends object>(value: T, keys: readonly string[]): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => keys.includes(key))) as Partial<T>;
}

/** Canonical API policies: what decode produces, so decode(encode(x)) must give x back. */
function validPolicies() {
  const units = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
  const amount = units.map((value) => {
    const integer = (value / 1_000_000n).toString();
    const fraction = (value % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
    return fraction === "" ? integer : `${integer}.${fraction}`;
  });
  const handle = fc
    .array(fc.stringMatching(/^[a-z0-9_-]{1,6}$/), { minLength: 1, maxLength: 3 })
    .map((labels) => labels.join("."));
  const pattern = fc.oneof(
    handle,
    handle.map((text) => `*.${text}`),
    fc.tuple(handle, fc.stringMatching(/^[a-z0-9_-]{1,10}$/)).map(([owner, name]) => `${owner}/${name}`),
    fc
      .uint8Array({ minLength: 32, maxLength: 32 })
      .map((bytes) => getAddressDecoder().decode(bytes) as string),
  );
  const minute = fc.integer({ min: 0, max: 1439 });
  const pad = (value: number) => String(value).padStart(2, "0");
  const hours = fc
    .tuple(minute, minute)
    .map(
      ([start, end]) =>
        `${pad(Math.floor(start / 60))}:${pad(start % 60)}-${pad(Math.floor(end / 60))}:${pad(end % 60)}`,
    );
  return fc.record({
    daily_limit_usdg: amount,
    per_transaction_limit_usdg: amount,
    hitl_threshold_usdg: amount,
    assets: fc.subarray(["USDG", "EURC"]),
    allowed_recipients: fc.array(pattern, { maxLength: 16 }),
    active_hours: hours,
    approval_window_seconds: fc.integer({ min: 1, max: 604_800 }),
  });
}
