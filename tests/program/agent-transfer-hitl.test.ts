/**
 * agent_transfer, the human-in-the-loop rule on the real program: an amount equal to the HITL
 * threshold executes; one base unit more is held in a PendingTransaction at
 * `["pending", agent, next_hold_nonce]` for the owner, nothing moves, the day's total is untouched
 * and TransactionHeld is emitted.
 */
import { describe, expect, it } from "vitest";
import { eventNames } from "../support/cluster-send";
import {
  AccountRole,
  createPolicyWorld,
  HITL_THRESHOLD,
  transferId,
  usdg,
  utc,
  withAccount,
} from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";

describe("agent_transfer: HITL threshold", () => {
  // Given alice/bot's policy holds anything above 50 USDG for approval within 24 h
  const given = perTestCase(async () => ({ world: await createPolicyWorld() }));

  it("executes an amount equal to the threshold", async () => {
    // When the agent sends exactly 50 USDG
    const outcome = await given.world.transfer({ amount: HITL_THRESHOLD });
    // Then it executes at once: no hold is created, no nonce taken
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(eventNames(outcome)).toEqual(["TransferExecuted"]);
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(HITL_THRESHOLD);
    expect(given.world.readAgent().nextHoldNonce).toBe(0n);
    expect(given.world.readPending(await given.world.pendingAddress(0n))).toBeNull();
  });

  it("holds threshold + 1 base unit: a PendingTransaction, no funds moved, TransactionHeld", async () => {
    const amount = HITL_THRESHOLD + 1n;
    const pending = await given.world.pendingAddress(0n);
    const balances = [
      given.world.balance(given.world.agent.usdg),
      given.world.balance(given.world.recipients.bob.usdg),
    ];
    // When the agent sends 50 USDG + 1 base unit to bob
    const outcome = await given.world.transfer({ amount, to: "bob", transferId: transferId(77) });
    // Then the transaction succeeds by holding the spend
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(outcome.events).toEqual([
      {
        name: "TransactionHeld",
        instructionIndex: 0,
        data: {
          agent: given.world.agent.address,
          pending,
          nonce: 0n,
          transferId: transferId(77),
          expiresAt: utc(0, 12) + 86_400n,
        },
      },
    ]);
    // And the hold pins the transfer's accounts, amount, payer and the recipient it proved
    const hold = given.world.readPending(pending);
    expect(hold).toMatchObject({
      agent: given.world.agent.address,
      nonce: 0n,
      source: given.world.agent.usdg,
      destination: given.world.recipients.bob.usdg,
      mint: given.world.usdgMint,
      amount,
      requestedAt: utc(0, 12),
      expiresAt: utc(0, 12) + 86_400n,
      rentPayer: given.world.feePayer.address,
      confidential: 0,
    });
    expect(Buffer.from(hold?.recipientHandle.slice(0, hold.recipientHandleLen) ?? []).toString()).toBe("bob");
    // And nothing moved, nothing counted today, the agent took nonce 0 and has one open hold
    expect([
      given.world.balance(given.world.agent.usdg),
      given.world.balance(given.world.recipients.bob.usdg),
    ]).toEqual(balances);
    expect(given.world.readPolicy().spentToday).toBe(0n);
    expect(given.world.readAgent()).toMatchObject({ nextHoldNonce: 1n, openHolds: 1 });
  });

  it("gives each hold the next nonce", async () => {
    // When two spends above the threshold are held one after the other
    expect((await given.world.transfer({ amount: HITL_THRESHOLD + 1n })).err).toBeNull();
    expect((await given.world.transfer({ amount: HITL_THRESHOLD + 2n })).err).toBeNull();
    // Then they sit at nonces 0 and 1
    expect(given.world.readPending(await given.world.pendingAddress(0n))?.amount).toBe(HITL_THRESHOLD + 1n);
    expect(given.world.readPending(await given.world.pendingAddress(1n))?.amount).toBe(HITL_THRESHOLD + 2n);
    expect(given.world.readAgent()).toMatchObject({ nextHoldNonce: 2n, openHolds: 2 });
  });

  it("refuses, rather than holds, a spend above the threshold that breaks the daily limit", async () => {
    // Given 200 of the 250 USDG spent today (the HITL threshold raised so they execute)
    expect((await given.world.updatePolicy({ hitl_threshold_usdg: "100" })).err).toBeNull();
    for (const amount of [usdg(100), usdg(100)])
      expect((await given.world.transfer({ amount })).err).toBeNull();
    expect((await given.world.updatePolicy({ hitl_threshold_usdg: "50" })).err).toBeNull();
    const pending = await given.world.pendingAddress(0n);
    // When the agent asks for 60 USDG (above HITL, and 260 > 250 today)
    const { outcome, changes } = await given.world.attempt(() => given.world.transfer({ amount: usdg(60) }), {
      extra: [pending],
    });
    // Then it is refused outright: no hold the owner could not approve today anyway
    expect(outcome.error).toBe("DailyLimitExceeded");
    expect(changes).toEqual([]);
  });

  it("does not read pending, payer or system program when the spend executes (program id in their slots)", async () => {
    let transfer = await given.world.transferInstruction({ amount: HITL_THRESHOLD });
    for (const slot of [7, 8, 10]) {
      transfer = withAccount(transfer, slot, { address: given.world.programId, role: AccountRole.READONLY });
    }
    const outcome = await given.world.send([transfer]);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(HITL_THRESHOLD);
  });

  it("needs them on the hold path: the program id as pending is refused, nothing held", async () => {
    const transfer = withAccount(await given.world.transferInstruction({ amount: HITL_THRESHOLD + 1n }), 7, {
      address: given.world.programId,
      role: AccountRole.READONLY,
    });
    await expectRefusedUnchanged(given.world, "AccountNotWritable", () => given.world.send([transfer]));
  });
});
