/**
 * agent_transfer, the per-transaction rule on the real program: `amount > per_transaction_limit`
 * is refused (never held), the limit itself passes. The HITL threshold is raised to the limit so
 * the executing path is what is measured at each boundary.
 */
import { describe, expect, it } from "vitest";
import { eventNames } from "../support/cluster-send";
import { createPolicyWorld, PER_TRANSACTION_LIMIT } from "../support/policy-world";
import { perTestCase } from "../support/shared-set-up";

describe("agent_transfer: per-transaction limit", () => {
  const given = perTestCase(async () => {
    // Given alice/bot may send 100 USDG per transaction, with nothing held at or below it
    const world = await createPolicyWorld();
    const raised = await world.updatePolicy({ hitl_threshold_usdg: "100" });
    expect(raised.err).toBeNull();
    return { world };
  });

  it.each([
    ["limit - 1", PER_TRANSACTION_LIMIT - 1n],
    ["limit", PER_TRANSACTION_LIMIT],
  ])("executes %s base units and moves exactly that amount", async (_, amount) => {
    const bob = given.world.recipients.bob.usdg;
    const [agentBefore, bobBefore] = [given.world.balance(given.world.agent.usdg), given.world.balance(bob)];
    // When the agent sends the amount to bob
    const outcome = await given.world.transfer({ amount, to: "bob" });
    // Then it executes: the tokens move and TransferExecuted is emitted
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(eventNames(outcome)).toEqual(["TransferExecuted"]);
    expect(given.world.balance(given.world.agent.usdg)).toBe(agentBefore - amount);
    expect(given.world.balance(bob)).toBe(bobBefore + amount);
    expect(given.world.readPolicy().spentToday).toBe(amount);
  });

  it("refuses limit + 1 base units with PerTransactionLimitExceeded and changes nothing", async () => {
    const before = given.world.snapshot();
    // When the agent sends one base unit more than the limit
    const outcome = await given.world.transfer({ amount: PER_TRANSACTION_LIMIT + 1n, to: "bob" });
    // Then the program refuses it (not held), and no account moved
    expect(outcome.error).toBe("PerTransactionLimitExceeded");
    expect(outcome.code).toBe(6024);
    expect(outcome.events).toEqual([]);
    expect(given.world.changesSince(before, outcome)).toEqual([]);
  });
});
