/**
 * Double spends through holds, on the real program: a hold executes at most once. Approving it
 * closes it (data zeroed, System-owned, no lamports), so a second approval — in the same
 * transaction or later — and any other way of closing it afterwards find no hold and fail,
 * changing nothing.
 */
import type { Address, Instruction } from "@solana/kit";
import { beforeEach, describe, expect, it } from "vitest";
import { createPolicyWorld, type PolicyWorld, usdg, utc } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";

describe("attacks: executing a hold twice", () => {
  let world: PolicyWorld;
  let pending: Address;
  let approve: Instruction;

  beforeEach(async () => {
    // Given a held 60 USDG spend to bob and alice's approval of it
    world = await createPolicyWorld();
    pending = await world.pendingAddress(0n);
    expect((await world.transfer({ amount: usdg(60) })).err).toBeNull();
    approve = await world.approveInstruction(pending);
  });

  it("refuses two approvals in one transaction: nothing moves at all", async () => {
    const { outcome, changes } = await world.attempt(() => world.send([approve, approve]), {
      extra: [pending],
    });
    expect(outcome.err).toEqual({ InstructionError: [1, { Custom: 6004 }] });
    expect(outcome.error).toBe("WrongAccountOwner");
    expect(changes).toEqual([]);
  });

  it("refuses a second approval after the first executed: the funds moved once", async () => {
    expect((await world.send([approve])).err).toBeNull();
    await expectRefusedUnchanged(world, "WrongAccountOwner", () => world.send([approve]), {
      extra: [pending],
    });
    expect(world.balance(world.recipients.bob.usdg)).toBe(usdg(60));
    expect(world.readPolicy().spentToday).toBe(usdg(60));
  });

  it("refuses to reject, or close as expired, a hold already approved", async () => {
    const reject = world.rejectInstruction(pending);
    const close = world.closeExpiredInstruction(pending);
    expect((await world.send([approve])).err).toBeNull();
    world.at(utc(2, 12));
    for (const instruction of [reject, close]) {
      await expectRefusedUnchanged(world, "WrongAccountOwner", () => world.send([instruction]), {
        extra: [pending],
      });
    }
  });

  it("refuses to approve a hold already rejected", async () => {
    expect((await world.reject(pending)).err).toBeNull();
    await expectRefusedUnchanged(world, "WrongAccountOwner", () => world.send([approve]), {
      extra: [pending],
    });
    expect(world.balance(world.recipients.bob.usdg)).toBe(0n);
  });
});
