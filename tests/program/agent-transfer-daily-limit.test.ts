/**
 * agent_transfer, the daily rule on the real program: spends of one UTC day accumulate in the
 * policy, `spent_today + amount > daily_limit` is refused, and the total starts again at 00:00:00
 * UTC of the cluster clock. The HITL threshold is raised to the per-transaction limit so every
 * spend here executes rather than being held.
 */
import { describe, expect, it } from "vitest";
import { createPolicyWorld, DAILY_LIMIT, usdg, utc } from "../support/policy-world";
import { perTestCase } from "../support/shared-set-up";

describe("agent_transfer: daily limit", () => {
  const given = perTestCase(async () => {
    // Given alice/bot may spend 250 USDG a day, 100 per transaction, nothing held up to 100
    const world = await createPolicyWorld();
    expect((await world.updatePolicy({ hitl_threshold_usdg: "100" })).err).toBeNull();
    return { world };
  });

  it("accumulates the day's spends up to exactly the limit", async () => {
    // When the agent spends 100 + 100 + 50 USDG on one day
    for (const amount of [usdg(100), usdg(100), usdg(50)]) {
      const outcome = await given.world.transfer({ amount });
      expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    }
    // Then all three executed and the policy counts 250 USDG on today's UTC day
    const policy = given.world.readPolicy();
    expect(policy.spentToday).toBe(DAILY_LIMIT);
    expect(policy.dayIndex).toBe(utc(0, 12) / 86_400n);
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(DAILY_LIMIT);
  });

  it("refuses the spend that would take the day one base unit past the limit, changing nothing", async () => {
    // Given 200 USDG already spent today
    for (const amount of [usdg(100), usdg(100)])
      expect((await given.world.transfer({ amount })).err).toBeNull();
    const before = given.world.snapshot();
    // When the agent asks for 50 USDG + 1 base unit (limit + 1)
    const outcome = await given.world.transfer({ amount: usdg(50) + 1n });
    // Then DailyLimitExceeded, and neither tokens nor the day's total moved
    expect(outcome.error).toBe("DailyLimitExceeded");
    expect(outcome.code).toBe(6025);
    expect(given.world.changesSince(before, outcome)).toEqual([]);
    // And the remaining 50 USDG still pass
    expect((await given.world.transfer({ amount: usdg(50) })).err).toBeNull();
    expect((await given.world.transfer({ amount: 1n })).error).toBe("DailyLimitExceeded");
  });

  it("keeps counting until 23:59:59 UTC and starts a new day at 00:00:00", async () => {
    // Given the whole 250 USDG spent on day 0
    for (const amount of [usdg(100), usdg(100), usdg(50)])
      expect((await given.world.transfer({ amount })).err).toBeNull();
    // When one base unit is asked at 23:59:59 on day 0
    given.world.at(utc(0, 23, 59, 59));
    const lastSecond = await given.world.transfer({ amount: 1n });
    // Then it is still day 0: refused
    expect(lastSecond.error).toBe("DailyLimitExceeded");
    // When 100 USDG are asked at 00:00:00 on day 1
    given.world.at(utc(1, 0));
    const firstSecond = await given.world.transfer({ amount: usdg(100) });
    // Then the day's total started again from zero, on day 1
    expect(firstSecond.err, firstSecond.logs.join("\n")).toBeNull();
    const policy = given.world.readPolicy();
    expect(policy.dayIndex).toBe(utc(1, 0) / 86_400n);
    expect(policy.spentToday).toBe(usdg(100));
  });

  it("grants no second allowance when the cluster clock steps back across midnight", async () => {
    // Given the whole 250 USDG spent at 00:00:00 on day 1
    given.world.at(utc(1, 0));
    for (const amount of [usdg(100), usdg(100), usdg(50)])
      expect((await given.world.transfer({ amount })).err).toBeNull();
    // When the clock steps back to 23:59:59 on day 0 and the agent asks for 1 base unit
    given.world.at(utc(0, 23, 59, 59));
    const before = given.world.snapshot();
    const back = await given.world.transfer({ amount: 1n });
    // Then day 1's total still counts: refused, nothing moved, the counted day stays day 1
    expect(back.error).toBe("DailyLimitExceeded");
    expect(given.world.changesSince(before, back)).toEqual([]);
    expect(given.world.readPolicy().dayIndex).toBe(utc(1, 0) / 86_400n);
  });
});
