/**
 * policy_update on the real program: only the fields given change, the version goes up by one,
 * `updated_at` is now, PolicyUpdated is emitted, and the next spend is judged by the new policy.
 * The result is validated as a whole: an update with one bad field changes nothing.
 */
import { getPolicyUpdateInstruction, type Policy } from "@cpay/sdk";
import { none, some } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { createPolicyWorld, usdg, utc } from "../support/policy-world";
import { perTestCase } from "../support/shared-set-up";

/** The owner-set fields and counters of a policy, without the ones an update moves. */
function unchangedPart(policy: Policy) {
  const { version: _v, updatedAt: _u, dailyLimit: _d, ...rest } = policy;
  return rest;
}

describe("policy_update", () => {
  const given = perTestCase(async () => ({ world: await createPolicyWorld() }));

  it("changes only the given field, bumps the version and emits PolicyUpdated", async () => {
    // Given some spend today and the policy as created (version 1)
    expect((await given.world.transfer({ amount: usdg(10) })).err).toBeNull();
    const before = given.world.readPolicy();
    expect(before.version).toBe(1);
    given.world.at(utc(0, 15));
    // When alice changes only the daily limit
    const outcome = await given.world.updatePolicy({ daily_limit_usdg: "300" });
    // Then only that field, the version and updated_at moved; today's spend is kept
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    const after = given.world.readPolicy();
    expect(after.dailyLimit).toBe(usdg(300));
    expect(after.version).toBe(2);
    expect(after.updatedAt).toBe(utc(0, 15));
    expect(unchangedPart(after)).toEqual(unchangedPart(before));
    expect(after.spentToday).toBe(usdg(10));
    expect(outcome.events).toEqual([
      {
        name: "PolicyUpdated",
        instructionIndex: 0,
        data: {
          agent: given.world.agent.address,
          policy: given.world.agent.policy,
          version: 2,
          updatedAt: utc(0, 15),
        },
      },
    ]);
  });

  it("applies to the very next spend", async () => {
    // Given a 20 USDG spend passes under the policy as created
    expect((await given.world.transfer({ amount: usdg(20) })).err).toBeNull();
    // When alice lowers the per-transaction limit to 10 USDG
    expect((await given.world.updatePolicy({ per_transaction_limit_usdg: "10" })).err).toBeNull();
    // Then the same spend is refused, and 10 USDG still pass
    expect((await given.world.transfer({ amount: usdg(20) })).error).toBe("PerTransactionLimitExceeded");
    expect((await given.world.transfer({ amount: usdg(10) })).err).toBeNull();
  });

  it("discards the whole update when one field is invalid", async () => {
    const before = given.world.snapshot();
    // When an update sets a valid daily limit and an approval window of 0 s (sent raw: the SDK refuses it)
    const update = getPolicyUpdateInstruction({
      owner: given.world.agent.owner,
      agent: given.world.agent.address,
      policy: given.world.agent.policy,
      update: {
        perTransactionLimit: none(),
        dailyLimit: some(1n),
        hitlThreshold: none(),
        activeStartMinute: none(),
        activeEndMinute: none(),
        approvalWindowSeconds: some(0),
        allowedMints: none(),
        recipientPatterns: none(),
      },
    });
    const outcome = await given.world.send([update]);
    // Then InvalidApprovalWindow, and the daily limit did not change either
    expect(outcome.error).toBe("InvalidApprovalWindow");
    expect(given.world.changesSince(before, outcome)).toEqual([]);
  });
});
