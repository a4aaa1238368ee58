import { describe, expect, it } from "vitest";
import { holdSpend } from "../support/held-spend";
import { createPolicyWorld, usdg, utc } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";

describe("attacks: executing a hold twice", () => {
  const given = perTestCase(async () => {
    // Given a held 60 USDG spend to bob and alice's approval of it
    const world = await createPolicyWorld();
    const pending = await holdSpend(world);
    return { world, pending, approve: await world.approveInstruction(pending) };
  });

  it("refuses two approvals in one transaction: nothing moves at all", async () => {
    const { outcome, changes } = await given.world.attempt(
      () => given.world.send([given.approve, given.approve]),
      {
        extra: [given.pending],
      },
    );
    expect(outcome.err).toEqual({ InstructionError: [1, { Custom: 6004 }] });
    expect(outcome.error).toBe("WrongAccountOwner");
    expect(changes).toEqual([]);
  });

  it("refuses a second approval after the first executed: the funds moved once", async () => {
    expect((await given.world.send([given.approve])).err).toBeNull();
    await expectRefusedUnchanged(given.world, "WrongAccountOwner", () => given.world.send([given.approve]), {
      extra: [given.pending],
    });
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(usdg(60));
    expect(given.world.readPolicy().spentToday).toBe(usdg(60));
  });

  it("refuses to reject, or close as expired, a hold already approved", async () => {
    const reject = given.world.rejectInstruction(given.pending);
    const close = given.world.closeExpiredInstruction(given.pending);
    expect((await given.world.send([given.approve])).err).toBeNull();
    given.world.at(utc(2, 12));
    for (const instruction of [reject, close]) {
      await expectRefusedUnchanged(given.world, "WrongAccountOwner", () => given.world.send([instruction]), {
        extra: [given.pending],
      });
    }
  });

  it("refuses to approve a hold already rejected", async () => {
    expect((await given.world.reject(given.pending)).err).toBeNull();
    await expectRefusedUnchanged(given.world, "WrongAccountOwner", () => given.world.send([given.approve]), {
      extra: [given.pending],
    });
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(0n);
  });
});
