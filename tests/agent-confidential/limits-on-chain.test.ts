/**
 * The limits hold against a client that lies: each refusal below comes from the program, for
 * proofs made one base unit looser than the policy (`unsafeForgedLimits`), so the SDK's own
 * pre-checks are out of the way. Policy: per transaction 100, daily 250, HITL 50 USDG.
 */
import { rejectHold } from "@cpay/sdk/agent-confidential";
import type { Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { fundedAgentSuite } from "../support/agent-confidential-world";
import {
  DAILY_LIMIT,
  HITL_THRESHOLD,
  PER_TRANSACTION_LIMIT,
  SECONDS_PER_DAY,
  usdg,
  utc,
} from "../support/policy-world";
import { expectForgedDailyLimitRefused, expectRefusedByProgram } from "../support/refused-by-program";

describe("limits enforced by the program over encrypted amounts", () => {
  const given = fundedAgentSuite({ funds: usdg(600), recipient: "bob" });

  it("Given the immediate bound min(per_tx, hitl) = 50, When a client proves 50 + 1 against 50 + 1, Then the program refuses it and exactly 50 executes", async () => {
    await expectRefusedByProgram(
      given.world,
      () =>
        given.world.confidentialTransfer({
          amount: HITL_THRESHOLD + 1n,
          unsafeForgedLimits: { bound: HITL_THRESHOLD + 1n, requestHold: false },
        }),
      "LimitProofMismatch",
    );
    const result = await given.world.confidentialTransfer({ amount: HITL_THRESHOLD });
    expect(result.outcome).toBe("executed");
    expect(given.world.proverState().confidentialSpentToday).toBe(usdg(50));
  });

  it("Given a hold (bound: per_tx = 100), When a client proves 100 + 1 against 100 + 1, Then the program refuses it and exactly 100 is held", async () => {
    await expectRefusedByProgram(
      given.world,
      () =>
        given.world.confidentialTransfer({
          amount: PER_TRANSACTION_LIMIT + 1n,
          unsafeForgedLimits: { bound: PER_TRANSACTION_LIMIT + 1n, requestHold: true },
        }),
      "LimitProofMismatch",
    );
    expect(await given.world.holds()).toHaveLength(0);
    const held = await given.world.confidentialTransfer({ amount: PER_TRANSACTION_LIMIT });
    expect(held.outcome).toBe("held");
    expect((await given.world.holds()).map((hold) => hold.address)).toEqual([held.pending]);
    // Rejected: the day below starts from the 50 executed above.
    await rejectHold(given.world.chain, {
      owner: given.world.agent.owner,
      pending: held.pending as Address,
      payer: given.world.feePayer,
    });
    expect(given.world.proverState().confidentialSpentToday).toBe(usdg(50));
  });

  it("Given spends accumulating to 220 of 250, When a client proves 31 against a daily limit one unit looser, Then the program refuses it; 30 executes and then 1 base unit more is refused", async () => {
    for (const amount of [usdg(50), usdg(50), usdg(50), usdg(20)]) {
      expect((await given.world.confidentialTransfer({ amount })).outcome).toBe("executed");
    }
    expect(given.world.proverState().confidentialSpentToday).toBe(usdg(220));
    await expectForgedDailyLimitRefused(given.world, usdg(30) + 1n);
    await given.world.confidentialTransfer({ amount: usdg(30) });
    expect(given.world.proverState().confidentialSpentToday).toBe(DAILY_LIMIT);
    await expectForgedDailyLimitRefused(given.world, 1n);
  });

  it("Given the daily limit reached, Then at 23:59:59 UTC one more unit is still refused and at 00:00:00 spending resumes from zero", async () => {
    given.world.at(utc(0, 23, 59, 59));
    expect(given.world.proverState()).toMatchObject({
      confidentialSpentToday: DAILY_LIMIT,
      source: "decryptable",
    });
    await expectForgedDailyLimitRefused(given.world, 1n);
    // A client claiming yesterday's total is already zero is refused too: S is still stored today.
    await expectRefusedByProgram(
      given.world,
      () =>
        given.world.confidentialTransfer({
          amount: 1n,
          unsafeForgedLimits: { confidentialSpentToday: 0n, spendCiphertext: new Uint8Array(64) },
        }),
      "LimitProofMismatch",
    );
    given.world.at(utc(1, 0, 0, 0));
    expect(given.world.proverState()).toMatchObject({ confidentialSpentToday: 0n, source: "new_day" });
    expect(given.world.readPolicy().dayIndex).toBe(utc(0, 12) / SECONDS_PER_DAY);
    expect((await given.world.confidentialTransfer({ amount: usdg(50) })).outcome).toBe("executed");
    // The program reset the day when it wrote the spend: S and the prover state hold 50, not 300.
    expect(given.world.readPolicy().dayIndex).toBe(utc(1, 0) / SECONDS_PER_DAY);
    expect(given.world.proverState()).toMatchObject({
      confidentialSpentToday: usdg(50),
      source: "decryptable",
    });
  });
});
