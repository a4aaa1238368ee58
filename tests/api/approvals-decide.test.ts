import { ApiRequestError } from "@cpay/sdk/api";
import { decryptEncryptedTotal, encryptedTotalFromBase64 } from "@cpay/sdk/confidential";
import { deriveViewingKeys, importAccountSecret, openTransferDetails } from "@cpay/sdk/sealed";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, usdg, type WorldAccount } from "../support/api-world";
import { eventually } from "../support/eventually";
import { createHoldingBots, createTestAgent, eventsOf, TEST_POLICY, type WorldAgent } from "./support/agents";
import {
  agentKeysOf,
  confidentialUsdg,
  expectFailedOnce,
  expectHoldReleased,
  holdAgentTransfer,
  keysOf,
  publicUsdg,
} from "./support/held-transfer";

describe("approving and rejecting held agent transactions", () => {
  const given = apiSuite({
    accounts: ["alice", "bob", "mallory"],
    setUp: ({ world, alice }) => createHoldingBots(world, alice),
  });

  const approve = (who: WorldAccount, id: string) =>
    who.client.call("approveTransaction", { params: { transaction_id: id } });
  const reject = (who: WorldAccount, id: string) =>
    who.client.call("rejectTransaction", { params: { transaction_id: id } });
  /** The agent key's transfer count and its encrypted total, decrypted as the owner would. */
  async function keyUsage(agent: WorldAgent): Promise<{ count: number; total: bigint }> {
    const { db } = given.world.service.context;
    const [key] = await db.read((q) =>
      q.select().from(db.tables.apiKeys).where(eq(db.tables.apiKeys.id, agent.key.id)),
    );
    const total =
      key?.transferredTotal == null
        ? 0n
        : decryptEncryptedTotal(
            encryptedTotalFromBase64(key.transferredTotal),
            agentKeysOf(given.alice, agent),
          );
    return { count: key?.transferCount ?? 0, total };
  }

  const holdPublic = (amount: string, agent = given.publicBot) =>
    holdAgentTransfer(given.world, agent, { to: "@bob", amount, confidential: false });
  const holdConfidential = (amount: string) =>
    holdAgentTransfer(given.world, given.confidentialBot, { to: "@bob", amount, confidential: true });

  it("Given a held transfer, When the owner lists pending approvals, Then it is there with its amount sealed to the owner only, and only there", async () => {
    const held = await holdPublic("60.25");
    const { pending } = await given.alice.client.call("listPendingApprovals");
    const item = pending.find((candidate) => candidate.transaction_id === held.transactionId);
    expect(item).toEqual({
      transaction_id: held.transactionId,
      agent: "@alice/public-bot",
      to: "@bob",
      confidential: false,
      requested_at: expect.any(String),
      expires_at: held.expiresAt,
      sealed_amount: expect.any(String),
    });
    expect(Date.parse(item?.expires_at ?? "") - Date.parse(item?.requested_at ?? "")).toBe(86_400_000);
    expect(JSON.stringify(pending)).not.toMatch(/"amount"|60\.25|60250000/);
    // The owner opens the sealed amount with its own secret, the same from the read of one; a third
    // account's secret cannot
    const sealed = item?.sealed_amount ?? "";
    const one = await given.alice.client.call("getAgentTransaction", {
      params: { transaction_id: held.transactionId },
    });
    expect(one).toMatchObject({
      status: "pending_approval",
      transfer_id: held.transferId,
      sealed_amount: sealed,
    });
    const viewer = (who: WorldAccount) => deriveViewingKeys(importAccountSecret(who.confidentialSecret));
    const boundTo = held.transactionId;
    expect(openTransferDetails({ sealed, viewer: viewer(given.alice), boundTo })).toMatchObject({
      amount: usdg(60) + 250_000n,
      direction: "received",
    });
    expect(() => openTransferDetails({ sealed, viewer: viewer(given.mallory), boundTo })).toThrow(
      expect.objectContaining({ code: "not_yours" }),
    );
    const foreign = await refusalOf(
      given.mallory.client.call("getAgentTransaction", { params: { transaction_id: held.transactionId } }),
    );
    expect([foreign.status, foreign.code]).toEqual([404, "transaction_not_found"]);
    expect((await given.mallory.client.call("listPendingApprovals")).pending).toEqual([]);
    const byAgent = await refusalOf(
      given.world.clientFor(given.publicBot.key.value).call("listPendingApprovals"),
    );
    expect([byAgent.status, byAgent.code]).toEqual([403, "agent_key_not_allowed"]);
    await reject(given.alice, held.transactionId);
  });

  it("Given a held public transfer, When the owner approves it, Then bob is paid the held amount, the transfer confirms and each event fires once", async () => {
    const held = await holdPublic("60");
    const [bobBefore, agentBefore] = [
      await publicUsdg(given.world, given.bob.account.publicKey),
      await publicUsdg(given.world, given.publicBot.agent.public_key),
    ];
    const usageBefore = await keyUsage(given.publicBot);
    const approved = await approve(given.alice, held.transactionId);
    // The held transfer counts toward its key's usage when it is submitted, i.e. at approval.
    const usageAfter = await keyUsage(given.publicBot);
    expect(usageAfter.count).toBe(usageBefore.count + 1);
    expect(usageAfter.total).toBe(usageBefore.total + usdg(60));
    expect(approved).toMatchObject({
      transaction_id: held.transactionId,
      status: "approved",
      agent: "@alice/public-bot",
      to: "@bob",
      confidential: false,
      transfer_id: held.transferId,
      expires_at: held.expiresAt,
    });
    expect(approved.tx_signature).not.toBeNull();
    expect(approved.decided_at).not.toBeNull();
    expect(await publicUsdg(given.world, given.bob.account.publicKey)).toBe(bobBefore + usdg(60));
    expect(await publicUsdg(given.world, given.publicBot.agent.public_key)).toBe(agentBefore - usdg(60));
    expect(
      await given.world.chain.getAccount((await given.world.holdRow(held.transactionId)).holdAddress),
    ).toBeNull();

    const settled = await eventually(
      () => given.world.transferRow(held.transferId),
      (row) => row.status !== "pending",
    );
    expect(settled).toMatchObject({ status: "confirmed", txSignature: approved.tx_signature });
    const [approvedEvents, confirmedEvents] = [
      await eventsOf(given.world, "agent.transaction.approved", held.transactionId),
      await eventsOf(given.world, "transfer.confirmed", held.transferId),
    ];
    expect(approvedEvents).toHaveLength(1);
    expect(await eventsOf(given.world, "transfer.initiated", held.transferId)).toHaveLength(1);
    expect(approvedEvents[0]?.accountId).toBe(given.alice.account.id);
    expect(approvedEvents[0]?.payload).toMatchObject({
      account: "@alice/public-bot",
      counterparty: "@bob",
      transaction_id: held.transactionId,
      transfer_id: held.transferId,
      confidential: false,
      asset: "USDG",
      tx_signature: approved.tx_signature,
    });
    expect(JSON.stringify(approvedEvents[0]?.payload)).not.toContain("amount");
    // (once to the agent that sent it, once to bob who received it)
    expect(confirmedEvents.map((event) => event.accountId).sort()).toEqual(
      [given.publicBot.agent.account_id, given.bob.account.id].sort(),
    );
    const { pending } = await given.alice.client.call("listPendingApprovals");
    expect(pending.map((item) => item.transaction_id)).not.toContain(held.transactionId);

    // A decision is final.
    for (const again of [approve, reject]) {
      const failure = await refusalOf(again(given.alice, held.transactionId));
      expect([failure.status, failure.code]).toEqual([409, "transaction_not_pending"]);
    }
    expect(await publicUsdg(given.world, given.bob.account.publicKey)).toBe(bobBefore + usdg(60));
  });

  it("Given a held public transfer, When the owner rejects it, Then nothing moves, the transfer fails and each event fires once", async () => {
    const held = await holdPublic("70");
    const [bobBefore, agentBefore] = [
      await publicUsdg(given.world, given.bob.account.publicKey),
      await publicUsdg(given.world, given.publicBot.agent.public_key),
    ];
    const rejected = await reject(given.alice, held.transactionId);
    expect(rejected).toMatchObject({ status: "rejected", transfer_id: held.transferId });
    expect(rejected.tx_signature).not.toBeNull();
    expect(await publicUsdg(given.world, given.bob.account.publicKey)).toBe(bobBefore);
    expect(await publicUsdg(given.world, given.publicBot.agent.public_key)).toBe(agentBefore);
    await expectFailedOnce(given.world, held, { phase: "settled", failureCode: "rejected" });
    expect(await eventsOf(given.world, "agent.transaction.rejected", held.transactionId)).toHaveLength(1);
    expect(await eventsOf(given.world, "agent.transaction.approved", held.transactionId)).toHaveLength(0);
    const again = await refusalOf(approve(given.alice, held.transactionId));
    expect([again.status, again.code]).toEqual([409, "transaction_not_pending"]);
  });

  it("Given a held confidential transfer, When the owner approves it, Then bob decrypts exactly the held amount", async () => {
    const bobBefore = await confidentialUsdg(given.world, given.bob.account.publicKey, keysOf(given.bob));
    const held = await holdConfidential("61.5");
    const agentKeys = agentKeysOf(given.alice, given.confidentialBot);
    const agentBefore = await confidentialUsdg(
      given.world,
      given.confidentialBot.agent.public_key,
      agentKeys,
    );
    const approved = await approve(given.alice, held.transactionId);
    expect(approved).toMatchObject({ status: "approved", confidential: true, transfer_id: held.transferId });
    const bobAfter = await confidentialUsdg(given.world, given.bob.account.publicKey, keysOf(given.bob));
    expect(bobAfter.pending).toBe(bobBefore.pending + 61_500_000n);
    const agentAfter = await confidentialUsdg(given.world, given.confidentialBot.agent.public_key, agentKeys);
    expect(agentAfter.available).toBe(agentBefore.available - 61_500_000n);
    const settled = await eventually(
      () => given.world.transferRow(held.transferId),
      (row) => row.status !== "pending",
    );
    expect(settled.status).toBe("confirmed");
    expect(await eventsOf(given.world, "agent.transaction.approved", held.transactionId)).toHaveLength(1);
    // The amount of a confidential transfer appears nowhere the service writes.
    expect(given.world.logs.join("\n")).not.toMatch(/61\.5|61500000/);
    const { db } = given.world.service.context;
    const rows = await db.read((q) => q.select().from(db.tables.events));
    expect(JSON.stringify(rows)).not.toMatch(/61\.5|61500000/);
  });

  it("Given a held confidential transfer, When the owner rejects it, Then no funds move and the agent can spend again", async () => {
    const agentKeys = agentKeysOf(given.alice, given.confidentialBot);
    const bobBefore = await confidentialUsdg(given.world, given.bob.account.publicKey, keysOf(given.bob));
    const held = await holdConfidential("70");
    const agentBefore = await confidentialUsdg(
      given.world,
      given.confidentialBot.agent.public_key,
      agentKeys,
    );
    const rejected = await reject(given.alice, held.transactionId);
    expect(rejected).toMatchObject({ status: "rejected", confidential: true });
    expect(await confidentialUsdg(given.world, given.bob.account.publicKey, keysOf(given.bob))).toEqual(
      bobBefore,
    );
    await expectHoldReleased(given.world, given.confidentialBot, held, {
      failureCode: "rejected",
      agentKeys,
      agentBefore,
    });
  });

  it("Given two approvals of one transaction at once, When both run, Then it executes once and the other is 409 transaction_not_pending", async () => {
    const held = await holdPublic("55");
    const bobBefore = await publicUsdg(given.world, given.bob.account.publicKey);
    const results = await Promise.allSettled([
      approve(given.alice, held.transactionId),
      approve(given.alice, held.transactionId),
    ]);
    const fulfilled = results.filter((result) => result.status === "fulfilled");
    const rejected = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toBeInstanceOf(ApiRequestError);
    expect((rejected[0] as ApiRequestError).code).toBe("transaction_not_pending");
    expect(await publicUsdg(given.world, given.bob.account.publicKey)).toBe(bobBefore + usdg(55));
    expect(await eventsOf(given.world, "agent.transaction.approved", held.transactionId)).toHaveLength(1);
  });

  it("Given another owner or an unknown id, When it decides, Then 404 transaction_not_found and nothing changes", async () => {
    const held = await holdPublic("51");
    for (const attempt of [approve, reject]) {
      const failure = await refusalOf(attempt(given.mallory, held.transactionId));
      expect([failure.status, failure.code]).toEqual([404, "transaction_not_found"]);
    }
    const unknown = await refusalOf(approve(given.alice, `tx_${"b".repeat(26)}`));
    expect([unknown.status, unknown.code]).toEqual([404, "transaction_not_found"]);
    const malformed = await given.world.fetch("/v1/agents/transactions/nope/approve", {
      key: given.alice.key.value,
      method: "POST",
    });
    expect(malformed.status).toBe(404);
    const byAgent = await refusalOf(
      given.world
        .clientFor(given.publicBot.key.value)
        .call("approveTransaction", { params: { transaction_id: held.transactionId } }),
    );
    expect([byAgent.status, byAgent.code]).toEqual([403, "agent_key_not_allowed"]);
    expect((await given.world.holdRow(held.transactionId)).status).toBe("pending_approval");
    await reject(given.alice, held.transactionId);
  });

  it("Given the owner lowered the per-transaction limit after the hold, When it approves, Then 422 policy_violation names the rule and the hold stays pending", async () => {
    const strict = await createTestAgent(given.world, given.alice, "strict-bot");
    await given.world.fund(strict.row, { public: usdg(100) });
    const held = await holdPublic("80", strict);
    await given.alice.client.call("updateSpendPolicy", {
      params: { account_id: strict.agent.account_id },
      body: { per_transaction_limit_usdg: 70 },
    });
    const failure = await refusalOf(approve(given.alice, held.transactionId));
    expect([failure.status, failure.code, failure.param]).toEqual([
      422,
      "policy_violation",
      "per_transaction_limit_usdg",
    ]);
    expect(failure.message).not.toMatch(/80|70/);
    expect((await given.world.holdRow(held.transactionId)).status).toBe("pending_approval");
    expect(await publicUsdg(given.world, strict.agent.public_key)).toBe(usdg(100));
    expect((await reject(given.alice, held.transactionId)).status).toBe("rejected");
  });

  it("Given the agent spent its balance after the hold, When the owner approves, Then 402 insufficient_balance and the hold stays pending", async () => {
    const spender = await createTestAgent(given.world, given.alice, "spender-bot");
    await given.world.fund(spender.row, { public: usdg(60) });
    const held = await holdPublic("60", spender);
    const spent = await given.world
      .clientFor(spender.key.value)
      .call("createTransfer", { body: { to: "@bob", amount: "30", confidential: false } });
    expect(spent.approval).toBeNull();
    const failure = await refusalOf(approve(given.alice, held.transactionId));
    expect([failure.status, failure.code]).toEqual([402, "insufficient_balance"]);
    expect((await given.world.holdRow(held.transactionId)).status).toBe("pending_approval");
  });

  it("Given a confidential hold and a tightened policy, When the owner approves, Then 422 policy_violation and a rejection still works", async () => {
    const held = await holdConfidential("80");
    await given.alice.client.call("updateSpendPolicy", {
      params: { account_id: given.confidentialBot.agent.account_id },
      body: { per_transaction_limit_usdg: 75 },
    });
    const failure = await refusalOf(approve(given.alice, held.transactionId));
    expect([failure.status, failure.code, failure.param]).toEqual([422, "policy_violation", "spend_policy"]);
    expect((await reject(given.alice, held.transactionId)).status).toBe("rejected");
    await given.alice.client.call("updateSpendPolicy", {
      params: { account_id: given.confidentialBot.agent.account_id },
      body: { per_transaction_limit_usdg: TEST_POLICY.per_transaction_limit_usdg },
    });
  });
});
