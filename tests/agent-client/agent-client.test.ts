/**
 * A self-custody agent's client (`@cpay/sdk/agent-client`) end to end on the real program: the
 * agent `alice/bot` holds its signer and confidential keys, builds, proves and signs its transfers,
 * and hands them to a relay (support/fake-relay.ts) that co-signs with the cluster's fee reserve and
 * submits. For every transaction the relay received: the fee payer's slot was empty and the fee
 * payer appears only where it pays or gets rent back. The agent's signer never holds a lamport.
 * Everything, the suite's own reads included, goes through the chain port: the suite runs in
 * process and against the localnet process (CPAY_TEST_CHAIN=rpc) alike.
 */

import { BPF_LOADER_UPGRADEABLE_ADDRESS, partiallySignTransactionToWire } from "@cpay/localnet/cluster";
import { type AgentClient, createAgentClient } from "@cpay/sdk/agent-client";
import {
  agentPolicyErrorOf,
  isPolicyLimitExceeded,
  transferAgentConfidential,
} from "@cpay/sdk/agent-confidential";
import { isConfidentialError } from "@cpay/sdk/confidential";
import { type Address, createNoopSigner } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DAILY_LIMIT, PER_TRANSACTION_LIMIT, transferId, usdg } from "../support/policy-world";
import { type AgentClientWorld, createAgentClientWorld } from "./support/agent-client-world";
import { createFakeRelay, type FakeRelay } from "./support/fake-relay";

describe("a self-custody agent's client through a relay", () => {
  let world: AgentClientWorld;
  let relay: FakeRelay;
  let client: AgentClient;

  const lamports = (account: Address) => world.lamports(account);
  const creditCounter = () => world.bobCreditCounter();
  const loaderAccounts = async () =>
    (await world.chain.getProgramAccounts(BPF_LOADER_UPGRADEABLE_ADDRESS)).length;

  beforeAll(async () => {
    world = await createAgentClientWorld();
    relay = createFakeRelay(world.chain, world.feeReserve);
    client = createAgentClient({
      chain: world.chain,
      relay,
      agentSigner: world.agent.signer,
      agent: world.agent.address,
      keys: world.agentKeys,
      mint: world.usdgMint,
    });
  });

  afterAll(async () => {
    await world?.close();
  });

  afterEach(async () => {
    // Every transaction the relay saw left the fee payer's slot empty and used it only for rent.
    for (const received of relay.received) {
      expect(received.feePayerSlotEmpty).toBe(true);
      expect(received.accounts[0]).toBe(relay.feePayer);
      expect(received.violations).toEqual([]);
    }
    expect(await lamports(world.agent.signer.address)).toBe(0n);
  });

  it("Given the agent's signer, Then it holds no SOL and the relay pays with another key", async () => {
    expect(await lamports(world.agent.signer.address)).toBe(0n);
    expect(relay.feePayer).not.toBe(world.feePayer.address);
    expect(await lamports(relay.feePayer)).toBeGreaterThan(0n);
  });

  it("Given a transaction that would move the fee payer's lamports, Then the fake relay refuses it unsigned (its check is not vacuous)", async () => {
    const { blockhash, lastValidBlockHeight } = await relay.info();
    const { wire } = await partiallySignTransactionToWire({
      feePayer: createNoopSigner(relay.feePayer),
      instructions: [
        getTransferSolInstruction({
          source: createNoopSigner(relay.feePayer),
          destination: world.agent.signer.address,
          amount: 1_000_000n,
        }),
      ],
      blockhash,
      lastValidBlockHeight,
    });
    await expect(relay.submit([wire])).rejects.toThrow(/fee payer as account 0/);
    const refused = relay.received.pop();
    expect(refused?.signature).toBeUndefined();
    expect(refused?.violations).toHaveLength(1);
  });

  it("Given the client, Then policy() decodes the on-chain policy and remainingToday() is the whole day", async () => {
    const policy = await client.policy();
    expect(policy.agent).toBe(world.agent.address);
    expect(policy.perTransactionLimit).toBe(PER_TRANSACTION_LIMIT);
    expect(policy.dailyLimit).toBe(DAILY_LIMIT);
    expect(await client.remainingToday()).toEqual({
      perTransaction: PER_TRANSACTION_LIMIT,
      daily: DAILY_LIMIT,
    });
  });

  it("Given a public amount under the HITL threshold, When transferred, Then one relayed transaction executes it and today's remaining drops by the amount", async () => {
    const before = {
      balance: await world.balance(world.bob.usdg),
      remaining: await client.remainingToday(),
      seen: relay.received.length,
    };
    const answer = await client.transfer({
      recipient: world.bob.wallet.address,
      recipientHandle: "bob",
      amount: usdg(20),
      confidential: false,
    });
    expect(relay.received.length - before.seen).toBe(1);
    expect(answer.signatures).toHaveLength(1);
    expect(answer.transfer).toMatchObject({
      status: "confirmed",
      confidential: false,
      to: world.bob.usdg,
      approval: null,
    });
    expect(await world.balance(world.bob.usdg)).toBe(before.balance + usdg(20));
    expect(await client.remainingToday()).toEqual({
      perTransaction: PER_TRANSACTION_LIMIT,
      daily: before.remaining.daily - usdg(20),
    });
    // The agent's only signature is its signer's: [ATA create, agent_transfer], paid by the relay.
    const landed = await world.chain.getTransaction(answer.signatures[0] as string, "confirmed");
    expect(landed?.accountKeys[0]).toBe(relay.feePayer);
  });

  it("Given a public amount above the HITL threshold, When transferred, Then it is held and heldTransactions lists it", async () => {
    const before = { balance: await world.balance(world.bob.usdg), remaining: await client.remainingToday() };
    const answer = await client.transfer({
      recipient: world.bob.wallet.address,
      amount: usdg(60),
      confidential: false,
    });
    expect(answer.transfer).toMatchObject({ status: "pending", confidential: false });
    const holds = await client.heldTransactions();
    expect(holds).toHaveLength(1);
    expect(holds[0]).toMatchObject({ amount: usdg(60), confidential: false, destination: world.bob.usdg });
    // The hold's rent is the relay's fee payer's; nothing moved and the day is not counted yet.
    expect(holds[0]?.rentPayer).toBe(relay.feePayer);
    expect(await world.balance(world.bob.usdg)).toBe(before.balance);
    expect(await client.remainingToday()).toEqual(before.remaining);
  });

  it("Given a public amount over the per-transaction limit, When transferred, Then the program refuses it in the relay's preflight and nothing lands", async () => {
    const before = { balance: await world.balance(world.agent.usdg), seen: relay.received.length };
    const error = await client
      .transfer({
        recipient: world.bob.wallet.address,
        amount: PER_TRANSACTION_LIMIT + 1n,
        confidential: false,
      })
      .catch((caught: unknown) => caught);
    expect(agentPolicyErrorOf(error)?.name).toBe("PerTransactionLimitExceeded");
    expect(relay.received.length - before.seen).toBe(1);
    expect(relay.received.at(-1)?.signature).toBeUndefined();
    expect(await world.balance(world.agent.usdg)).toBe(before.balance);
  });

  it("Given a confidential amount under the HITL threshold, When transferred, Then 10 relayed transactions execute it and the day's encrypted spend, decrypted locally, counts it", async () => {
    const before = {
      counter: await creditCounter(),
      pending: await world.bobPending(),
      remaining: await client.remainingToday(),
      available: await world.agentAvailable(),
      seen: relay.received.length,
      loader: await loaderAccounts(),
    };
    const answer = await client.transfer({
      recipient: world.bob.wallet.address,
      recipientHandle: "bob",
      amount: usdg(30),
      confidential: true,
    });
    expect(answer.transfer).toMatchObject({ status: "confirmed", confidential: true, to: world.bob.usdg });
    // 3 context transactions, the limit range verify and the U128 proof's Write in two parts, the transfer.
    // Every context is created in the transaction that verifies into it (a relay funds nothing
    // ahead of its use): the proofs too large for that are staged and verified from the buffer.
    expect(relay.received.length - before.seen).toBe(10);
    expect(relay.received.slice(before.seen).every((received) => received.signature !== undefined)).toBe(
      true,
    );
    expect(await creditCounter()).toBe(before.counter + 1n);
    expect(await world.bobPending()).toBe(before.pending + usdg(30));
    expect(await world.agentAvailable()).toBe(before.available - usdg(30));
    expect((await world.proverState()).confidentialSpentToday).toBe(usdg(30));
    expect(await client.remainingToday()).toEqual({
      perTransaction: PER_TRANSACTION_LIMIT,
      daily: before.remaining.daily - usdg(30),
    });
    // The staging buffer was closed in the final transaction.
    expect(await loaderAccounts()).toBe(before.loader);
  });

  it("Given a confidential spend today, When the remaining is read without the keys, Then it says the keys are needed", async () => {
    const keyless = createAgentClient({
      chain: world.chain,
      relay,
      agentSigner: world.agent.signer,
      agent: world.agent.address,
      mint: world.usdgMint,
    });
    await expect(keyless.remainingToday()).rejects.toThrow(/confidential keys/);
  });

  it("Given proofs the program refuses in the final transaction, When relayed, Then the agent closes every context and the buffer: none was left allocated and unverified", async () => {
    const before = {
      available: await world.agentAvailable(),
      counter: await creditCounter(),
      loader: await loaderAccounts(),
    };
    const error = await transferAgentConfidential(world.chain, {
      agentSigner: world.agent.signer,
      agent: world.agent.address,
      keys: world.agentKeys,
      mint: world.usdgMint,
      recipient: world.bob.wallet.address,
      amount: usdg(60),
      transferId: transferId(77),
      // Execute 60 (above the HITL threshold of 50) by proving m - a against m = 100.
      unsafeForgedLimits: { bound: usdg(100), requestHold: false },
      relay: {
        feePayer: relay.feePayer,
        submit: async (wires) => (await relay.submit(wires)).signatures,
      },
    }).catch((caught: unknown) => caught);
    expect(isConfidentialError(error, "step_failed", "transfer")).toBe(true);
    expect(agentPolicyErrorOf(error)?.name).toBe("LimitProofMismatch");
    if (!isConfidentialError(error)) throw error;
    const outcomes = Object.fromEntries(error.contexts.map((context) => [context.step, context.outcome]));
    expect(outcomes).toEqual({
      equality_proof: "closed",
      ciphertext_validity_proof: "closed",
      limit_equality_transaction_proof: "closed",
      limit_equality_daily_proof: "closed",
      limit_range_proof: "closed",
      // Staged, and verified from the buffer in the transaction that created its context.
      range_proof: "closed",
    });
    expect(await loaderAccounts()).toBe(before.loader);
    expect(await world.agentAvailable()).toBe(before.available);
    expect(await creditCounter()).toBe(before.counter);
  });

  it("Given a confidential amount over the per-transaction limit, Then the SDK refuses it before the relay sees anything", async () => {
    const seen = relay.received.length;
    const error = await client
      .transfer({
        recipient: world.bob.wallet.address,
        amount: PER_TRANSACTION_LIMIT + 1n,
        confidential: true,
      })
      .catch((caught: unknown) => caught);
    expect(isPolicyLimitExceeded(error, "per_transaction")).toBe(true);
    expect(relay.received.length).toBe(seen);
  });

  it("Given a confidential amount above the HITL threshold, When transferred, Then it is held without an amount and the day is not counted", async () => {
    const before = { remaining: await client.remainingToday(), counter: await creditCounter() };
    const answer = await client.transfer({
      recipient: world.bob.wallet.address,
      amount: usdg(70),
      confidential: true,
    });
    expect(answer.transfer).toMatchObject({ status: "pending", confidential: true });
    const holds = await client.heldTransactions();
    expect(holds).toHaveLength(2);
    expect(holds.find((hold) => hold.confidential)).toMatchObject({
      amount: null,
      rentPayer: relay.feePayer,
    });
    expect(await creditCounter()).toBe(before.counter);
    expect(await client.remainingToday()).toEqual(before.remaining);
  });
});
