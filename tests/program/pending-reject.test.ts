/**
 * pending_reject on the real program: the owner discards a held spend before it expires; nothing
 * moves, the hold is closed with its rent back to its payer and TransactionRejected is emitted.
 */
import { describe, expect, it } from "vitest";
import { createPolicyWorld, transferId, usdg } from "../support/policy-world";

describe("pending_reject", () => {
  it("discards the hold: no tokens move, the rent goes back, the agent has no open hold", async () => {
    // Given a held 60 USDG spend
    const world = await createPolicyWorld();
    const pending = await world.pendingAddress(0n);
    expect((await world.transfer({ amount: usdg(60), transferId: transferId(5) })).err).toBeNull();
    const rent = world.lamports(pending);
    const tokens = [world.balance(world.agent.usdg), world.balance(world.recipients.bob.usdg)];
    const payerBefore = world.lamports(world.feePayer.address);
    // When alice rejects it
    const outcome = await world.reject(pending);
    // Then nothing moved, the hold is closed and its rent is back with the payer (minus this fee)
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect([world.balance(world.agent.usdg), world.balance(world.recipients.bob.usdg)]).toEqual(tokens);
    expect(world.readPending(pending)).toBeNull();
    expect(world.lamports(world.feePayer.address)).toBe(payerBefore + rent - outcome.fee);
    expect(world.readAgent().openHolds).toBe(0);
    expect(world.readPolicy().spentToday).toBe(0n);
    expect(outcome.events).toEqual([
      {
        name: "TransactionRejected",
        instructionIndex: 0,
        data: { agent: world.agent.address, pending, transferId: transferId(5) },
      },
    ]);
  });
});
