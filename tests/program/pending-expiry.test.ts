import { describe, expect, it } from "vitest";
import { eventNames } from "../support/cluster-send";
import { holdSpend } from "../support/held-spend";
import { createPolicyWorld, usdg, utc, withAccount } from "../support/policy-world";
import { perTestCase } from "../support/shared-set-up";
import { testSigner } from "../support/test-keys";

describe("held spends after their approval window", () => {
  const given = perTestCase(async () => {
    // Given a one-hour approval window and a 60 USDG spend held at 12:00:00, its rent paid by holdPayer
    const world = await createPolicyWorld();
    expect((await world.updatePolicy({ approval_window_seconds: 3_600 })).err).toBeNull();
    const holdPayer = await testSigner("hold payer");
    world.cluster.requestAirdrop(holdPayer.address, 1_000_000_000n);
    const pending = await holdSpend(world, { amount: usdg(60), payer: holdPayer });
    expect(world.readPending(pending)?.expiresAt).toBe(utc(0, 13));
    return { world, holdPayer, pending };
  });

  it("can still be approved at 12:59:59, one second before expires_at", async () => {
    given.world.at(utc(0, 12, 59, 59));
    const outcome = await given.world.approve(given.pending);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(usdg(60));
  });

  it.each(["approve", "reject"] as const)(
    "refuses %s at expires_at with TransactionExpired",
    async (action) => {
      given.world.at(utc(0, 13));
      const before = given.world.snapshot([given.pending, given.holdPayer.address]);
      const outcome =
        action === "approve"
          ? await given.world.approve(given.pending)
          : await given.world.reject(given.pending);
      expect(outcome.error).toBe("TransactionExpired");
      expect(outcome.code).toBe(6029);
      expect(given.world.changesSince(before, outcome)).toEqual([]);
    },
  );

  it("cannot be closed by anyone before expires_at", async () => {
    given.world.at(utc(0, 12, 59, 59));
    const before = given.world.snapshot([given.pending, given.holdPayer.address]);
    const outcome = await given.world.closeExpired(given.pending, { payer: given.world.stranger });
    expect(outcome.error).toBe("TransactionNotExpired");
    expect(given.world.changesSince(before, outcome, given.world.stranger)).toEqual([]);
  });

  it("is closed by a third party at expires_at, the rent going to the hold's payer", async () => {
    given.world.at(utc(0, 13));
    const rent = given.world.lamports(given.pending);
    const [payerBefore, strangerBefore] = [
      given.world.lamports(given.holdPayer.address),
      given.world.lamports(given.world.stranger.address),
    ];
    const tokens = given.world.balance(given.world.agent.usdg);
    // When a stranger (paying the fee) closes the expired hold
    const outcome = await given.world.closeExpired(given.pending, { payer: given.world.stranger });
    // Then the hold is gone, its rent went to holdPayer, the stranger only paid the fee
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(eventNames(outcome)).toEqual(["TransactionExpired"]);
    expect(given.world.readPending(given.pending)).toBeNull();
    expect(given.world.lamports(given.holdPayer.address)).toBe(payerBefore + rent);
    expect(given.world.lamports(given.world.stranger.address)).toBe(strangerBefore - outcome.fee);
    expect(given.world.balance(given.world.agent.usdg)).toBe(tokens);
    expect(given.world.readAgent().openHolds).toBe(0);
  });

  it("refuses to send the rent to anyone but the hold's payer (WrongRentReceiver)", async () => {
    given.world.at(utc(0, 13));
    const before = given.world.snapshot([given.pending, given.holdPayer.address]);
    const close = withAccount(given.world.closeExpiredInstruction(given.pending), 2, {
      address: given.world.stranger.address,
    });
    const outcome = await given.world.send([close], { payer: given.world.stranger });
    expect(outcome.error).toBe("WrongRentReceiver");
    expect(outcome.code).toBe(6033);
    expect(given.world.changesSince(before, outcome, given.world.stranger)).toEqual([]);
  });
});
