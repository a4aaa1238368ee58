/**
 * The agent's confidential path end to end on the real program (.so in LiteSVM): set up the agent's
 * USDG account, deposit and apply, transfer under the limits (executed), hold above the HITL
 * threshold and approve, withdraw — every step through `@cpay/sdk/agent-confidential`.
 */
import {
  AGENT_TRANSFER_STEPS,
  agentPolicyErrorOf,
  approveConfidentialHold,
  isPolicyLimitExceeded,
  readAgentAccount,
  withdrawAgentConfidential,
} from "@cpay/sdk/agent-confidential";
import { isConfidentialError } from "@cpay/sdk/confidential";
import { describe, expect, it } from "vitest";
import { fundedAgentSuite } from "../support/agent-confidential-world";
import { accountBytes, plantAccount } from "../support/plant-account";
import { usdg, utc } from "../support/policy-world";

describe("agent confidential transfers", () => {
  const given = fundedAgentSuite({ funds: usdg(300) });

  it("Given a configured and funded agent account, Then its confidential balance is available and the public rest stays", () => {
    expect(given.world.agentAvailable()).toBe(usdg(300));
    expect(given.world.balance(given.world.agent.usdg)).toBe(usdg(700));
  });

  it("Given setup again with the same keys, Then nothing is sent (idempotent)", async () => {
    await expect(given.world.setupAgent()).resolves.toBeUndefined();
  });

  it("Given an amount within min(per_tx, hitl), When the agent transfers confidentially, Then it executes in 6 transactions and the prover state counts it", async () => {
    await given.world.confidentialRecipient("bob");
    const payerBefore = given.world.lamports(given.world.feePayer.address);
    const result = await given.world.confidentialTransfer({ amount: usdg(40) });
    expect(result.outcome).toBe("executed");
    // Every context and the staging buffer were closed back to the payer: it paid fees only.
    const fees = result.signatures.reduce(
      (sum, signature) => sum + (given.world.cluster.getTransaction(signature)?.fee ?? 0n),
      0n,
    );
    expect(given.world.lamports(given.world.feePayer.address)).toBe(payerBefore - fees);
    expect(result.pending).toBeUndefined();
    expect(result.signatures).toHaveLength(6);
    expect(AGENT_TRANSFER_STEPS).toHaveLength(7);
    expect(given.world.agentAvailable()).toBe(usdg(260));
    expect(await given.world.recipientPending()).toBe(usdg(40));
    expect(given.world.proverState()).toMatchObject({
      confidentialSpentToday: usdg(40),
      source: "decryptable",
    });
  });

  it("Given a second spend the same day, Then the daily total accumulates across spends", async () => {
    await given.world.confidentialTransfer({ amount: usdg(50) });
    expect(given.world.proverState().confidentialSpentToday).toBe(usdg(90));
    expect(await given.world.recipientPending()).toBe(usdg(90));
  });

  it("Given a restart with a corrupt prover-state blob on chain, Then the total is rebuilt by ElGamal decryption and the next spend writes a good blob", async () => {
    const policy = accountBytes(given.world.cluster, given.world.agent.policy);
    policy.fill(0xab, 1384, 1420); // spend_decryptable
    plantAccount(given.world.cluster, {
      address: given.world.agent.policy,
      owner: given.world.programId,
      data: policy,
    });
    expect(given.world.proverState()).toMatchObject({ confidentialSpentToday: usdg(90), source: "elgamal" });
    await given.world.confidentialTransfer({ amount: 1n });
    expect(given.world.proverState()).toMatchObject({
      confidentialSpentToday: usdg(90) + 1n,
      source: "decryptable",
    });
    await given.world.confidentialTransfer({ amount: usdg(10) - 1n });
    expect(given.world.proverState().confidentialSpentToday).toBe(usdg(100));
  });

  it("Given an amount above the per-transaction limit, Then the SDK refuses before sending anything", async () => {
    const before = given.world.agentAvailable();
    const error = await given.world
      .confidentialTransfer({ amount: usdg(101) })
      .catch((caught: unknown) => caught);
    expect(isPolicyLimitExceeded(error, "per_transaction")).toBe(true);
    expect(given.world.agentAvailable()).toBe(before);
  });

  it("Given proofs against a forged per-transaction bound, Then the program refuses them (LimitProofMismatch) and the contexts are closed", async () => {
    const before = given.world.agentAvailable();
    const error = await given.world
      // Execute 60 (above the HITL threshold of 50) by proving m - a against m = 100.
      .confidentialTransfer({
        amount: usdg(60),
        unsafeForgedLimits: { bound: usdg(100), requestHold: false },
      })
      .catch((caught: unknown) => caught);
    expect(isConfidentialError(error, "step_failed", "transfer")).toBe(true);
    expect(agentPolicyErrorOf(error)?.name).toBe("LimitProofMismatch");
    if (!isConfidentialError(error)) throw error;
    expect(error.contexts.map((context) => context.outcome)).toEqual(Array(6).fill("closed"));
    expect(given.world.agentAvailable()).toBe(before);
  });

  it("Given an amount above the HITL threshold, When transferred, Then it is held without an amount and the owner's approval executes it", async () => {
    const result = await given.world.confidentialTransfer({ amount: usdg(60) });
    expect(result.outcome).toBe("held");
    expect(result.pending).toBeDefined();
    const pending = result.pending ?? ("" as never);
    expect((await readAgentAccount(given.world.chain, given.world.agent.address)).confidentialHold).toBe(
      pending,
    );
    const holds = await given.world.holds();
    expect(holds).toHaveLength(1);
    expect(holds[0]).toMatchObject({ address: pending, confidential: true, amount: null });
    expect(given.world.agentAvailable()).toBe(usdg(200));

    const blocked = await given.world
      .confidentialTransfer({ amount: usdg(1) })
      .catch((caught: unknown) => caught);
    expect(isConfidentialError(blocked, "confidential_hold_open")).toBe(true);

    await approveConfidentialHold(given.world.chain, {
      owner: given.world.agent.owner,
      pending,
      payer: given.world.feePayer,
    });
    expect(await given.world.holds()).toHaveLength(0);
    expect(given.world.agentAvailable()).toBe(usdg(140));
    expect(await given.world.recipientPending()).toBe(usdg(160));
    expect(given.world.proverState().confidentialSpentToday).toBe(usdg(160));
  });

  it("Given what is left of today's limit, Then a larger spend is refused (daily) and the exact rest executes", async () => {
    // 250 - 160 = 90 left: 40 now, then 50 more is the exact rest; one unit more breaks the day.
    await given.world.confidentialTransfer({ amount: usdg(40) });
    const over = await given.world
      .confidentialTransfer({ amount: usdg(50) + 1n })
      .catch((caught: unknown) => caught);
    expect(isPolicyLimitExceeded(over, "daily")).toBe(true);
    await given.world.confidentialTransfer({ amount: usdg(50) });
    expect(given.world.proverState().confidentialSpentToday).toBe(usdg(250));
    const none = await given.world.confidentialTransfer({ amount: 1n }).catch((caught: unknown) => caught);
    expect(isPolicyLimitExceeded(none, "daily")).toBe(true);
  });

  it("Given the next UTC day, Then the prover state starts from zero and a spend executes", async () => {
    given.world.at(utc(1, 9));
    expect(given.world.proverState()).toMatchObject({ confidentialSpentToday: 0n, source: "new_day" });
    const result = await given.world.confidentialTransfer({ amount: usdg(10) });
    expect(result.outcome).toBe("executed");
    expect(given.world.proverState()).toMatchObject({
      confidentialSpentToday: usdg(10),
      source: "decryptable",
    });
  });

  it("Given a confidential balance, When the agent withdraws, Then it moves to the account's public balance", async () => {
    const publicBefore = given.world.balance(given.world.agent.usdg);
    const availableBefore = given.world.agentAvailable();
    const { signatures } = await withdrawAgentConfidential(given.world.chain, {
      authority: given.world.agent.signer,
      agent: given.world.agent.address,
      keys: given.world.agentKeys(),
      mint: given.world.usdgMint,
      amount: usdg(5),
      payer: given.world.feePayer,
    });
    expect(signatures).toHaveLength(3);
    expect(given.world.balance(given.world.agent.usdg)).toBe(publicBefore + usdg(5));
    expect(given.world.agentAvailable()).toBe(availableBefore - usdg(5));
  });
});
