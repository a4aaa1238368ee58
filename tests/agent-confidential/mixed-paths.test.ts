/**
 * The public and confidential paths share one daily limit. A confidential spend counts today's
 * public spend P (the program proves against L_day - P); a public spend (`agent_transfer`, or the
 * approval of a public hold) is refused on a day the agent already spent confidentially — the
 * program cannot add a public amount to a total it cannot see — and allowed again the next UTC day.
 * Policy: per transaction 100, daily 250, HITL 50 USDG.
 */
import { isPolicyLimitExceeded } from "@cpay/sdk/agent-confidential";
import type { Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { fundedAgentSuite } from "../support/agent-confidential-world";
import { DAILY_LIMIT, usdg, utc } from "../support/policy-world";
import {
  expectForgedDailyLimitRefused,
  expectRefusedByProgram,
  worldChangesBy,
} from "../support/refused-by-program";

describe("public and confidential spends in one daily limit", () => {
  const given = fundedAgentSuite({ funds: usdg(400), recipient: "bob" });
  let publicHold: Address;

  it("Given a confidential spend today, Then a public transfer and the approval of a public hold are refused (PublicSpendAfterConfidential) with nothing changed", async () => {
    // Held before the confidential spend (a hold is not a spend until it is approved).
    publicHold = await given.world.pendingAddress(given.world.readAgent().nextHoldNonce);
    expect((await given.world.transfer({ amount: usdg(60) })).err).toBeNull();
    expect(given.world.readPending(publicHold)).not.toBeNull();
    expect((await given.world.confidentialTransfer({ amount: usdg(10) })).outcome).toBe("executed");

    const refusals: (string | null)[] = [];
    const changes = await worldChangesBy(given.world, async () => {
      refusals.push((await given.world.transfer({ amount: 1n })).error);
      refusals.push((await given.world.approve(publicHold)).error);
    });
    expect(refusals).toEqual(["PublicSpendAfterConfidential", "PublicSpendAfterConfidential"]);
    expect(changes).toEqual([]);
    expect(given.world.readPolicy().spentToday).toBe(0n);
  });

  it("Given the next UTC day, Then public spends are allowed again: a transfer and the public hold's approval execute", async () => {
    given.world.at(utc(1, 9));
    const bobBefore = given.world.balance(given.world.recipients.bob.usdg);
    expect((await given.world.transfer({ amount: usdg(30) })).err).toBeNull();
    expect((await given.world.approve(publicHold)).err).toBeNull();
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(bobBefore + usdg(90));
    expect(given.world.proverState()).toMatchObject({
      publicSpentToday: usdg(90),
      confidentialSpentToday: 0n,
      // Yesterday's S was reset when the program wrote today's public spend.
      spendCiphertext: new Uint8Array(64),
      source: "none",
    });
  });

  it("Given 90 spent publicly today, Then the confidential allowance is 250 - 90 = 160: the program refuses proofs that leave P out or are one unit looser, and spends of exactly 160 execute", async () => {
    const allowance = DAILY_LIMIT - usdg(90);
    await expectRefusedByProgram(
      given.world,
      () =>
        given.world.confidentialTransfer({ amount: usdg(10), unsafeForgedLimits: { publicSpentToday: 0n } }),
      "LimitProofMismatch",
    );
    for (const amount of [usdg(50), usdg(50), usdg(50)]) {
      expect((await given.world.confidentialTransfer({ amount })).outcome).toBe("executed");
    }
    const rest = allowance - usdg(150);
    const tooMuch = await given.world
      .confidentialTransfer({ amount: rest + 1n })
      .catch((caught: unknown) => caught);
    expect(isPolicyLimitExceeded(tooMuch, "daily")).toBe(true);
    // P claimed one base unit lower: an allowance one unit looser.
    await expectRefusedByProgram(
      given.world,
      () =>
        given.world.confidentialTransfer({
          amount: rest + 1n,
          unsafeForgedLimits: { publicSpentToday: usdg(90) - 1n },
        }),
      "LimitProofMismatch",
    );
    expect((await given.world.confidentialTransfer({ amount: rest })).outcome).toBe("executed");
    expect(given.world.proverState()).toMatchObject({
      publicSpentToday: usdg(90),
      confidentialSpentToday: allowance,
    });
    await expectForgedDailyLimitRefused(given.world, 1n);
    // The confidential spends never touch the public counter.
    expect(given.world.readPolicy().spentToday).toBe(usdg(90));
  });
});
