/**
 * Confidential holds on the real program: listed without an amount, rejected or closed after
 * expiry with their pinned contexts given back, and nothing moved. Plus a policy whose limits are
 * too large for one 64-bit limit proof (the limit range proof is then U128, staged like the
 * Token-2022 range proof) still executes in 6 transactions.
 */

import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "@cpay/localnet/cluster";
import {
  closeExpiredHold,
  isPolicyLimitExceeded,
  listAgentPendingTransactions,
  readAgentAccount,
  rejectHold,
} from "@cpay/sdk/agent-confidential";
import { isConfidentialError } from "@cpay/sdk/confidential";
import type { Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { type AgentConfidentialWorld, createFundedAgentWorld } from "../support/agent-confidential-world";
import { DEFAULT_POLICY, usdg, utc } from "../support/policy-world";

/** Loader-owned accounts: a staging buffer left behind would show up here. */
function loaderAccounts(world: AgentConfidentialWorld): number {
  return world.cluster.getProgramAccounts(BPF_LOADER_UPGRADEABLE_ADDRESS).length;
}

async function hold(world: AgentConfidentialWorld, amount: bigint): Promise<Address> {
  const result = await world.confidentialTransfer({ amount });
  expect(result.outcome).toBe("held");
  if (result.pending === undefined) throw new Error("no hold");
  return result.pending;
}

describe("confidential holds", () => {
  it("Given a held transfer, When it is listed, Then it shows no amount and pins three live contexts", async () => {
    const world = await createFundedAgentWorld({ funds: usdg(300) });
    // 10 is within the HITL threshold: held only because the agent asks for it.
    const requested = await world.confidentialTransfer({ amount: usdg(10), requestHold: true });
    expect(requested.outcome).toBe("held");
    const [listed] = await listAgentPendingTransactions(world.chain, world.agent.handle);
    expect(listed).toMatchObject({ address: requested.pending, confidential: true, amount: null });
    for (const context of Object.values(listed?.contexts ?? {})) {
      expect(world.cluster.getAccount(context)?.owner).toBe("ZkE1Gama1Proof11111111111111111111111111111");
    }
  });

  it("Given a confidential hold, When the owner rejects it, Then nothing moved, its contexts are closed and the agent can spend again", async () => {
    const world = await createFundedAgentWorld({ funds: usdg(300) });
    const loaderBefore = loaderAccounts(world);
    const pending = await hold(world, usdg(60));
    const [listed] = await world.holds();
    // A hold moves nothing until it is approved.
    expect(world.agentAvailable()).toBe(usdg(300));
    await rejectHold(world.chain, { owner: world.agent.owner, pending, payer: world.feePayer });
    expect(await world.holds()).toHaveLength(0);
    for (const context of Object.values(listed?.contexts ?? {}))
      expect(world.cluster.getAccount(context)).toBeNull();
    expect((await readAgentAccount(world.chain, world.agent.address)).confidentialHold).toBeNull();
    expect(world.agentAvailable()).toBe(usdg(300));
    expect(await world.recipientPending()).toBe(0n);
    expect(world.proverState().confidentialSpentToday).toBe(0n);
    expect(loaderAccounts(world)).toBe(loaderBefore);
    expect((await world.confidentialTransfer({ amount: usdg(20) })).outcome).toBe("executed");
  });

  it("Given an expired confidential hold, When anyone closes it, Then nothing moved and the rent goes back", async () => {
    const world = await createFundedAgentWorld({ funds: usdg(300) });
    const pending = await hold(world, usdg(70));
    world.at(utc(1, 13));
    await closeExpiredHold(world.chain, { pending, payer: world.stranger });
    expect(await world.holds()).toHaveLength(0);
    expect(world.agentAvailable()).toBe(usdg(300));
    expect((await readAgentAccount(world.chain, world.agent.address)).confidentialHold).toBeNull();
  });
});

describe("limits too large for one 64-bit limit proof", () => {
  it("Given per-transaction and daily limits near u64, When the agent transfers, Then a U128 limit proof (staged) carries it in 6 transactions", async () => {
    const world = await createFundedAgentWorld({
      funds: usdg(300),
      world: {
        policy: {
          ...DEFAULT_POLICY,
          per_transaction_limit_usdg: "9000000000000",
          daily_limit_usdg: "18000000000000",
          hitl_threshold_usdg: "9000000000000",
        },
      },
    });
    const loaderBefore = loaderAccounts(world);
    const result = await world.confidentialTransfer({ amount: usdg(100) });
    expect(result.outcome).toBe("executed");
    expect(result.signatures).toHaveLength(6);
    // Both range proofs are U128 (1,000 bytes): each is written to the staging buffer in phase 2.
    const writes = result.signatures.filter((signature) =>
      world.cluster
        .getTransaction(signature)
        ?.logs[0]?.startsWith(`Program ${BPF_LOADER_UPGRADEABLE_ADDRESS}`),
    );
    expect(writes).toHaveLength(2);
    expect(await world.recipientPending()).toBe(usdg(100));
    expect(loaderAccounts(world)).toBe(loaderBefore);
    // 200 left: above it, the balance refuses (the policy would allow it).
    const tooMuch = await world
      .confidentialTransfer({ amount: usdg(201) })
      .catch((caught: unknown) => caught);
    expect(isPolicyLimitExceeded(tooMuch)).toBe(false);
    expect(isConfidentialError(tooMuch, "insufficient_confidential_balance")).toBe(true);
  });
});
