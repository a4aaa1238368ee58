/**
 * Integer edges on the real program: with every limit at u64::MAX and something already spent
 * today, an amount of u64::MAX must not wrap `spent_today + amount` into a small number; it is a
 * clean DailyLimitExceeded and nothing changes. Without the per-transaction headroom it is refused
 * earlier, and a u64::MAX the limits allow still cannot move more than the balance.
 */
import { describe, expect, it } from "vitest";
import { createPolicyWorld } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";

const U64_MAX = 2n ** 64n - 1n;
/** u64::MAX base units, as the API writes it (6 decimals). */
const U64_MAX_USDG = "18446744073709.551615";

describe("attacks: integer overflow in the limits", () => {
  const given = perTestCase(async () => ({ world: await createPolicyWorld() }));

  it("refuses u64::MAX with u64::MAX limits once anything was spent today (no wrap)", async () => {
    // Given per-transaction, daily and HITL limits of u64::MAX, and 1 base unit spent today
    const updated = await given.world.updatePolicy({
      per_transaction_limit_usdg: U64_MAX_USDG,
      daily_limit_usdg: U64_MAX_USDG,
      hitl_threshold_usdg: U64_MAX_USDG,
    });
    expect(updated.err, updated.logs.join("\n")).toBeNull();
    expect(given.world.readPolicy()).toMatchObject({ perTransactionLimit: U64_MAX, dailyLimit: U64_MAX });
    expect((await given.world.transfer({ amount: 1n })).err).toBeNull();
    // When the agent asks for u64::MAX (1 + u64::MAX wraps to 0 in unchecked arithmetic)
    const { outcome, changes } = await given.world.attempt(() => given.world.transfer({ amount: U64_MAX }));
    // Then the daily rule refuses it cleanly and nothing changed
    expect(outcome.error).toBe("DailyLimitExceeded");
    expect(changes).toEqual([]);
    expect(given.world.readPolicy().spentToday).toBe(1n);
  });

  it("refuses u64::MAX under the default per-transaction limit", async () => {
    await expectRefusedUnchanged(given.world, "PerTransactionLimitExceeded", () =>
      given.world.transfer({ amount: U64_MAX }),
    );
  });

  it("lets Token-2022 refuse a u64::MAX the limits allow: more than the balance, nothing moves", async () => {
    expect(
      (
        await given.world.updatePolicy({
          per_transaction_limit_usdg: U64_MAX_USDG,
          daily_limit_usdg: U64_MAX_USDG,
          hitl_threshold_usdg: U64_MAX_USDG,
        })
      ).err,
    ).toBeNull();
    const { outcome, changes } = await given.world.attempt(() => given.world.transfer({ amount: U64_MAX }));
    // Token-2022's InsufficientFunds (Custom 1) under our instruction: not one of our errors
    expect(outcome.code).toBe(1);
    expect(outcome.error).toBeNull();
    expect(changes).toEqual([]);
  });

  it("refuses to hold u64::MAX when the day's total would overflow", async () => {
    // Given u64::MAX per-transaction and daily limits, HITL 50 USDG, 1 base unit spent today
    expect(
      (
        await given.world.updatePolicy({
          per_transaction_limit_usdg: U64_MAX_USDG,
          daily_limit_usdg: U64_MAX_USDG,
        })
      ).err,
    ).toBeNull();
    expect((await given.world.transfer({ amount: 1n })).err).toBeNull();
    const pending = await given.world.pendingAddress(0n);
    await expectRefusedUnchanged(
      given.world,
      "DailyLimitExceeded",
      () => given.world.transfer({ amount: U64_MAX }),
      {
        extra: [pending],
      },
    );
  });
});
