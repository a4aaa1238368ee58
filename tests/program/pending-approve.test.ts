/**
 * pending_approve on the real program: the owner approves a held spend; the policy in force at
 * approval is re-checked (per-transaction, daily counted on the day of approval, assets,
 * recipients), the held amount moves, and the hold is closed with its rent back to its payer.
 */
import type { Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { eventNames } from "../support/cluster-send";
import { holdSpend } from "../support/held-spend";
import { createPolicyWorld, transferId, usdg, utc } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";
import { testSigner } from "../support/test-keys";

describe("pending_approve", () => {
  const held = usdg(60);
  const given = perTestCase(async () => {
    // Given alice/bot's 60 USDG spend to bob was held (HITL 50), its rent paid by a hold payer
    const world = await createPolicyWorld();
    const holdPayer = await testSigner("hold payer");
    world.cluster.requestAirdrop(holdPayer.address, 1_000_000_000n);
    return {
      world,
      pending: await holdSpend(world, { amount: held, transferId: transferId(9), payer: holdPayer }),
    };
  });

  it("executes the held spend, counts it today and closes the hold to its payer", async () => {
    const rent = given.world.lamports(given.pending);
    const rentPayer = given.world.readPending(given.pending)?.rentPayer as Address;
    const payerBefore = given.world.lamports(rentPayer);
    // When alice approves within the window
    const outcome = await given.world.approve(given.pending);
    // Then the held amount moved from the agent to bob
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(held);
    expect(given.world.balance(given.world.agent.usdg)).toBe(usdg(1_000) - held);
    expect(eventNames(outcome)).toEqual(["TransferExecuted", "TransactionApproved"]);
    expect(outcome.events[0]?.data).toMatchObject({ fromHold: true, transferId: transferId(9) });
    // And it counts towards today's spend; the hold is gone and its rent is back with its payer
    expect(given.world.readPolicy().spentToday).toBe(held);
    expect(given.world.readPending(given.pending)).toBeNull();
    expect(given.world.lamports(given.pending)).toBe(0n);
    expect(given.world.lamports(rentPayer)).toBe(payerBefore + rent);
    expect(given.world.readAgent()).toMatchObject({ openHolds: 0, nextHoldNonce: 1n });
  });

  it("refuses when the per-transaction limit in force is now below the held amount", async () => {
    // Given the owner lowered the per-transaction limit to 55 USDG after the hold
    expect((await given.world.updatePolicy({ per_transaction_limit_usdg: "55" })).err).toBeNull();
    const before = given.world.snapshot([given.pending]);
    // When alice approves the 60 USDG hold
    const outcome = await given.world.approve(given.pending);
    // Then the policy in force refuses it and nothing changes: the hold is still open
    expect(outcome.error).toBe("PerTransactionLimitExceeded");
    expect(given.world.changesSince(before, outcome)).toEqual([]);
    // And raising the limit again lets the same hold through
    expect((await given.world.updatePolicy({ per_transaction_limit_usdg: "60" })).err).toBeNull();
    expect((await given.world.approve(given.pending)).err).toBeNull();
  });

  it("refuses when the recipients in force no longer allow the held destination", async () => {
    expect((await given.world.updatePolicy({ allowed_recipients: ["*.acme"] })).err).toBeNull();
    const before = given.world.snapshot([given.pending]);
    const outcome = await given.world.approve(given.pending);
    expect(outcome.error).toBe("RecipientNotAllowed");
    expect(given.world.changesSince(before, outcome)).toEqual([]);
  });

  it("counts the held amount on the day of approval, not the day it was held", async () => {
    // Given 200 more USDG were spent later on day 0 (the hold is not counted while it waits)
    expect((await given.world.updatePolicy({ hitl_threshold_usdg: "100" })).err).toBeNull();
    for (const amount of [usdg(100), usdg(100)])
      expect((await given.world.transfer({ amount })).err).toBeNull();
    expect(given.world.readPolicy().spentToday).toBe(usdg(200));
    // When alice approves at 23:59:59 on day 0, then again at 00:00:00 on day 1
    given.world.at(utc(0, 23, 59, 59));
    const sameDay = await given.world.approve(given.pending);
    given.world.at(utc(1, 0));
    const nextDay = await given.world.approve(given.pending);
    // Then on day 0 it would make 260 > 250: refused; on day 1 it is the day's first 60
    expect(sameDay.error).toBe("DailyLimitExceeded");
    expect(nextDay.err, nextDay.logs.join("\n")).toBeNull();
    expect(given.world.readPolicy()).toMatchObject({ dayIndex: utc(1, 0) / 86_400n, spentToday: held });
  });

  it("refuses when the held mint is no longer allowed (MintNotAllowed)", async () => {
    expect((await given.world.updatePolicy({ assets: [] })).err).toBeNull();
    await expectRefusedUnchanged(given.world, "MintNotAllowed", () => given.world.approve(given.pending), {
      extra: [given.pending],
    });
  });

  it("does not re-check active hours: the owner may approve outside them", async () => {
    // Given spending is now limited to 09:00-17:00 and it is 20:00
    expect((await given.world.updatePolicy({ active_hours: "09:00-17:00" })).err).toBeNull();
    given.world.at(utc(0, 20));
    expect((await given.world.transfer({ amount: 1n })).error).toBe("OutsideActiveHours");
    // When alice approves the hold
    const outcome = await given.world.approve(given.pending);
    // Then it executes: the human in the loop is not bound by the agent's hours
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(held);
  });
});
