/**
 * Held spends expire on the real program: approve and reject need `now < expires_at`
 * (TransactionExpired from then on); from `expires_at`, anyone may close the hold, and its rent
 * goes to the hold's rent payer only (WrongRentReceiver for anyone else).
 */
import type { KeyPairSigner } from "@solana/kit";
import { beforeEach, describe, expect, it } from "vitest";
import { eventNames } from "../support/cluster-send";
import { createPolicyWorld, type PolicyWorld, usdg, utc, withAccount } from "../support/policy-world";
import { testSigner } from "../support/test-keys";

describe("held spends after their approval window", () => {
  let world: PolicyWorld;
  let holdPayer: KeyPairSigner;
  let pending: Awaited<ReturnType<PolicyWorld["pendingAddress"]>>;

  beforeEach(async () => {
    // Given a one-hour approval window and a 60 USDG spend held at 12:00:00, its rent paid by holdPayer
    world = await createPolicyWorld();
    expect((await world.updatePolicy({ approval_window_seconds: 3_600 })).err).toBeNull();
    holdPayer = await testSigner("hold payer");
    world.cluster.requestAirdrop(holdPayer.address, 1_000_000_000n);
    pending = await world.pendingAddress(0n);
    expect((await world.transfer({ amount: usdg(60), payer: holdPayer })).err).toBeNull();
    expect(world.readPending(pending)?.expiresAt).toBe(utc(0, 13));
  });

  it("can still be approved at 12:59:59, one second before expires_at", async () => {
    world.at(utc(0, 12, 59, 59));
    const outcome = await world.approve(pending);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(world.balance(world.recipients.bob.usdg)).toBe(usdg(60));
  });

  it.each(["approve", "reject"] as const)(
    "refuses %s at expires_at with TransactionExpired",
    async (action) => {
      world.at(utc(0, 13));
      const before = world.snapshot([pending, holdPayer.address]);
      const outcome = action === "approve" ? await world.approve(pending) : await world.reject(pending);
      expect(outcome.error).toBe("TransactionExpired");
      expect(outcome.code).toBe(6029);
      expect(world.changesSince(before, outcome)).toEqual([]);
    },
  );

  it("cannot be closed by anyone before expires_at", async () => {
    world.at(utc(0, 12, 59, 59));
    const before = world.snapshot([pending, holdPayer.address]);
    const outcome = await world.closeExpired(pending, { payer: world.stranger });
    expect(outcome.error).toBe("TransactionNotExpired");
    expect(world.changesSince(before, outcome, world.stranger)).toEqual([]);
  });

  it("is closed by a third party at expires_at, the rent going to the hold's payer", async () => {
    world.at(utc(0, 13));
    const rent = world.lamports(pending);
    const [payerBefore, strangerBefore] = [
      world.lamports(holdPayer.address),
      world.lamports(world.stranger.address),
    ];
    const tokens = world.balance(world.agent.usdg);
    // When a stranger (paying the fee) closes the expired hold
    const outcome = await world.closeExpired(pending, { payer: world.stranger });
    // Then the hold is gone, its rent went to holdPayer, the stranger only paid the fee
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(eventNames(outcome)).toEqual(["TransactionExpired"]);
    expect(world.readPending(pending)).toBeNull();
    expect(world.lamports(holdPayer.address)).toBe(payerBefore + rent);
    expect(world.lamports(world.stranger.address)).toBe(strangerBefore - outcome.fee);
    expect(world.balance(world.agent.usdg)).toBe(tokens);
    expect(world.readAgent().openHolds).toBe(0);
  });

  it("refuses to send the rent to anyone but the hold's payer (WrongRentReceiver)", async () => {
    world.at(utc(0, 13));
    const before = world.snapshot([pending, holdPayer.address]);
    const close = withAccount(world.closeExpiredInstruction(pending), 2, { address: world.stranger.address });
    const outcome = await world.send([close], { payer: world.stranger });
    expect(outcome.error).toBe("WrongRentReceiver");
    expect(outcome.code).toBe(6033);
    expect(world.changesSince(before, outcome, world.stranger)).toEqual([]);
  });
});
