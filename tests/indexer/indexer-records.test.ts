/**
 * The indexer beside the API, on one database and one embedded cluster: the API records what it
 * submits, the indexer what the program's logs say, and every fact fires exactly once whoever saw
 * it first — including the recipient's own `transfer.confirmed` (direction `received`), which only
 * the indexer writes, and transfers the API never saw (an agent signing through its PDA itself).
 * Replaying history (another catch-up, a pass from an empty checkpoint, a restart) adds nothing.
 *
 * One world for the file; the steps share it and run in order (the mix of the first is what the
 * second looks at; the restart and /health steps see everything before them).
 */
import { walletSignerOf } from "@cpay/api/vault";
import { runIndexPass, startIndexerServer } from "@cpay/indexer";
import type { HoldRow } from "@cpay/ledger";
import { idFromBytes } from "@cpay/ledger/ids";
import { signTransactionToWire } from "@cpay/localnet/cluster";
import {
  buildPendingApproveInstruction,
  getPendingTransactionDecoder,
  parseAgentPolicyEvents,
} from "@cpay/sdk";
import { address, generateKeyPairSigner } from "@solana/kit";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestAgent } from "../api/support/agents";
import { holdAgentTransfer } from "../api/support/held-transfer";
import { usdg, type WorldAccount } from "../support/api-world";
import { landedTransaction, settled } from "../support/chain-reads";
import { indexerSuite } from "./support/indexer-suite";
import { type OutboxEvent, sendAgentSignedTransfer } from "./support/indexer-world";

/** A transfer of the mix, and what the chain must have made of it. */
interface SentTransfer {
  readonly transferId: string;
  readonly senderId: string;
  readonly senderHandle: string;
  /** The service account that receives, or null for an outside wallet. */
  readonly recipient: WorldAccount | null;
  readonly outcome: "confirmed" | "rejected";
}

describe("the indexer beside the API", () => {
  const mix: SentTransfer[] = [];
  const given = indexerSuite({
    accounts: { alice: "alice", bob: "bob", merchant: { handle: "merchant", type: "business" } },
    funds: { alice: { confidential: usdg(100), public: usdg(100) } },
    setUp: async ({ api, alice }) => {
      const bot = await createTestAgent(api, alice, "bot");
      const solo = await createTestAgent(api, alice, "solo");
      await api.fund(bot.row, { public: usdg(300) });
      await api.fund(solo.row, { public: usdg(300) });
      return { bot, solo };
    },
  });

  /** A public transfer of alice's bot, held for her approval (above its HITL threshold). */
  const holdBotTransfer = (to: string, amount: string) =>
    holdAgentTransfer(given.api, given.bot, { to, amount, confidential: false });
  const fromAlice = (recipient: WorldAccount | null, transferId: string): SentTransfer => ({
    transferId,
    senderId: given.alice.account.id,
    senderHandle: given.alice.account.handle,
    recipient,
    outcome: "confirmed",
  });
  const fromBot = (
    recipient: WorldAccount,
    transferId: string,
    outcome: SentTransfer["outcome"] = "confirmed",
  ): SentTransfer => ({
    transferId,
    senderId: given.bot.row.id,
    senderHandle: given.bot.row.handle,
    recipient,
    outcome,
  });

  /** Events of `type` about `resourceId`; `direction` tells the sender's from the recipient's. */
  const about = (
    events: readonly OutboxEvent[],
    type: string,
    resourceId: string,
    direction?: "sent" | "received",
  ) =>
    events.filter(
      (event) =>
        event.type === type &&
        event.resourceId === resourceId &&
        (direction === undefined || event.payload.direction === direction),
    );

  /** Asserts the outbox facts of one transfer: each exactly once, or not at all. */
  function expectTransferFacts(events: readonly OutboxEvent[], sent: SentTransfer): void {
    const id = sent.transferId;
    const confirmed = sent.outcome === "confirmed";
    const initiated = about(events, "transfer.initiated", id);
    expect(initiated, `transfer.initiated of ${id}`).toHaveLength(confirmed ? 1 : 0);
    const sentConfirmed = about(events, "transfer.confirmed", id, "sent");
    expect(sentConfirmed, `transfer.confirmed of ${id}`).toHaveLength(confirmed ? 1 : 0);
    expect(about(events, "transfer.failed", id), `transfer.failed of ${id}`).toHaveLength(confirmed ? 0 : 1);
    for (const event of [...initiated, ...sentConfirmed]) {
      expect(event).toMatchObject({ accountId: sent.senderId, factKey: `${event.type}:${id}` });
      expect(event.payload).toMatchObject({ account: sent.senderHandle, direction: "sent", transfer_id: id });
    }
    const received = about(events, "transfer.confirmed", id, "received");
    const receives = confirmed && sent.recipient !== null;
    expect(received, `received transfer.confirmed of ${id}`).toHaveLength(receives ? 1 : 0);
    if (receives && sent.recipient !== null) {
      expect(received[0]).toMatchObject({
        accountId: sent.recipient.account.id,
        factKey: `transfer.confirmed:${id}:received`,
      });
      expect(received[0]?.payload).toMatchObject({
        event: "transfer.confirmed",
        direction: "received",
        account: sent.recipient.account.handle,
        counterparty: sent.senderHandle,
        transfer_id: id,
      });
    }
  }

  /** No two events describe one fact, and none carries an amount. */
  function expectEachFactOnce(events: readonly OutboxEvent[]): void {
    const facts = events.map((event) =>
      [
        event.type,
        event.resourceId,
        event.payload.direction ?? "",
        event.type === "agent.policy.updated" ? event.payload.tx_signature : "",
      ].join(" "),
    );
    expect(facts.filter((fact, index) => facts.indexOf(fact) !== index)).toEqual([]);
    for (const event of events) {
      expect(Object.keys(event.payload)).not.toContain("amount");
      expect(JSON.stringify(event.payload)).not.toMatch(/amount/i);
    }
  }

  /** Successful program transactions at `confirmed` or deeper, newest first. */
  async function programHistory() {
    await settled(given.api.chain);
    return await given.api.chain.getSignaturesForAddress(given.api.chain.programId, {
      limit: 1000,
      commitment: "confirmed",
    });
  }

  /** The program's events of a landed transaction, keyed as `indexed_events` keys them. */
  async function loggedEvents(signature: string): Promise<string[]> {
    const record = await landedTransaction(given.api.chain, signature);
    if (record === null) throw new Error(`no transaction ${signature}`);
    const { events } = parseAgentPolicyEvents(record.logs, {
      programAddress: address(given.api.chain.programId),
    });
    const perInstruction = new Map<number, number>();
    return events.map((event) => {
      const index = perInstruction.get(event.instructionIndex) ?? 0;
      perInstruction.set(event.instructionIndex, index + 1);
      return `${signature} ${event.instructionIndex} ${index} ${event.name}`;
    });
  }

  async function indexedEventRows() {
    const { db } = given.api.service.context;
    return db.read((q) => q.select().from(db.tables.indexedEvents));
  }

  async function holdOf(transferId: string): Promise<HoldRow | undefined> {
    const { db } = given.api.service.context;
    const { holds } = db.tables;
    const [row] = await db.read((q) => q.select().from(holds).where(eq(holds.transferId, transferId)));
    return row;
  }

  async function keyTransferCount(keyId: string): Promise<number> {
    const { db } = given.api.service.context;
    const { apiKeys } = db.tables;
    const [key] = await db.read((q) => q.select().from(apiKeys).where(eq(apiKeys.id, keyId)));
    return key?.transferCount ?? 0;
  }

  const settle = async () => {
    await given.api.slots(3);
    await given.world.catchUp();
  };

  it("Given the API and the indexer both observing a mix of transfers, holds, decisions and a policy change, Then each fact fires exactly once, and replaying history duplicates nothing", async () => {
    // When alice pays bob confidentially, the merchant and an outside wallet publicly
    const stranger = (await generateKeyPairSigner()).address;
    const confidential = await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "5" },
    });
    const toMerchant = await given.alice.client.call("createTransfer", {
      body: { to: "@merchant", amount: "3", confidential: false },
    });
    const toStranger = await given.alice.client.call("createTransfer", {
      body: { to: stranger, amount: "1", confidential: false },
    });
    mix.push(
      fromAlice(given.bob, confidential.transfer_id),
      fromAlice(given.merchant, toMerchant.transfer_id),
      fromAlice(null, toStranger.transfer_id),
    );
    // ... her agent pays the merchant under its HITL threshold with its own key
    const direct = await given.api
      .clientFor(given.bot.key.value)
      .call("createTransfer", { body: { to: "@merchant", amount: "10", confidential: false } });
    expect(direct.approval).toBeNull();
    mix.push(fromBot(given.merchant, direct.transfer_id));
    // ... two spends above it are held: alice approves one and rejects the other
    const approved = await holdBotTransfer("@bob", "60");
    await given.alice.client.call("approveTransaction", {
      params: { transaction_id: approved.transactionId },
    });
    const rejected = await holdBotTransfer("@bob", "70");
    await given.alice.client.call("rejectTransaction", {
      params: { transaction_id: rejected.transactionId },
    });
    mix.push(fromBot(given.bob, approved.transferId), fromBot(given.bob, rejected.transferId, "rejected"));
    // ... and she changes the agent's spend policy
    await given.alice.client.call("updateSpendPolicy", {
      params: { account_id: given.bot.agent.account_id },
      body: { daily_limit_usdg: 240 },
    });
    await settle();

    // Then every transfer has each of its facts once; the recipient's only when it is ours
    const events = await given.world.events();
    for (const sent of mix) expectTransferFacts(events, sent);
    // ... each hold and decision once, to the owner
    for (const [transactionId, decision] of [
      [approved.transactionId, "approved"],
      [rejected.transactionId, "rejected"],
    ] as const) {
      const pending = about(events, "agent.transaction.pending_approval", transactionId);
      const decided = about(events, `agent.transaction.${decision}`, transactionId);
      expect(pending).toHaveLength(1);
      expect(decided).toHaveLength(1);
      expect([pending[0]?.accountId, decided[0]?.accountId]).toEqual([
        given.alice.account.id,
        given.alice.account.id,
      ]);
    }
    expect(about(events, "agent.transaction.rejected", approved.transactionId)).toEqual([]);
    expect(about(events, "agent.transaction.approved", rejected.transactionId)).toEqual([]);
    // ... the policy change once, keyed by the one transaction that changed it on chain
    const policyChanges = [];
    for (const entry of await programHistory()) {
      if ((await loggedEvents(entry.signature)).some((event) => event.endsWith(" PolicyUpdated"))) {
        policyChanges.push(entry);
      }
    }
    expect(policyChanges).toHaveLength(1);
    const policyEvents = events.filter((event) => event.type === "agent.policy.updated");
    expect(policyEvents).toHaveLength(1);
    expect(policyEvents[0]).toMatchObject({
      accountId: given.alice.account.id,
      resourceId: given.bot.agent.spend_policy_id,
      factKey: `agent.policy.updated:${policyChanges[0]?.signature}`,
    });
    // ... and no fact twice anywhere in the outbox, none with an amount
    expectEachFactOnce(events);

    // When the indexer catches up again, and a pass walks the whole history from no checkpoint
    await given.world.catchUp();
    expect(await given.world.events()).toEqual(events);
    const indexedBefore = await indexedEventRows();
    await given.world.stopIndexer();
    await given.world.resetCheckpoint();
    expect(await given.world.checkpointSignature()).toBeNull();
    const replay = await runIndexPass(given.world.passContext);
    // Then every program transaction was applied again, and the outbox is exactly as it was
    expect(replay).toEqual({ indexed: (await programHistory()).length, incomplete: false, stalled: false });
    expect(await given.world.events()).toEqual(events);
    expect(await indexedEventRows()).toHaveLength(indexedBefore.length);
    expect(await given.world.checkpointSignature()).toBe(await given.world.newestConfirmedProgramSignature());
    await given.world.restartIndexer();
  });

  it("Given the mix, Then every transfer's state comes from the chain: confirmed by a transaction at confirmed commitment, the checkpoint at the newest transaction, every program event indexed once at its position", async () => {
    // Then every transfer that moved funds is confirmed, by a transaction the chain has at confirmed
    for (const sent of mix) {
      const row = await given.api.transferRow(sent.transferId);
      if (sent.outcome === "rejected") {
        expect(row).toMatchObject({ status: "failed", confirmedAt: null });
        continue;
      }
      expect(row.status).toBe("confirmed");
      expect(row.confirmedAt).not.toBeNull();
      expect(Date.parse(row.confirmedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(row.createdAt));
      const status = await given.api.chain.getSignatureStatus(row.txSignature ?? "");
      expect(status?.err).toBeNull();
      expect(["confirmed", "finalized"]).toContain(status?.confirmationStatus);
    }
    // ... the checkpoint is the newest program transaction at confirmed commitment
    await given.world.catchUp();
    expect(await given.world.checkpointSignature()).toBe(await given.world.newestConfirmedProgramSignature());
    // ... and indexed_events holds exactly the events the program logged, at their positions
    const history = await programHistory();
    const logged: string[] = [];
    for (const entry of history.filter((candidate) => candidate.err === null)) {
      logged.push(...(await loggedEvents(entry.signature)));
    }
    const indexed = (await indexedEventRows()).map(
      (row) => `${row.signature} ${row.instructionIndex} ${row.eventIndex} ${row.event}`,
    );
    expect(logged.length).toBeGreaterThan(mix.length);
    expect([...indexed].sort()).toEqual([...logged].sort());

    // When the slots of those transactions are finalized
    await given.api.slots(33);
    const finalizedSlot = Number(await given.api.chain.getSlot("finalized"));
    // Then the indexer marks their events finalized (its finality check runs every 2 s; the
    // deadline is a safety net for a busy machine)
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = (await indexedEventRows()).filter((row) => row.slot <= finalizedSlot);
      if (rows.length > 0 && rows.every((row) => row.state === "finalized")) break;
      if (Date.now() > deadline) {
        throw new Error(`not finalized: ${JSON.stringify(rows.filter((row) => row.state !== "finalized"))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await given.world.indexer.status()).lastError).toBeNull();
  });

  it("Given an agent that signs through its PDA itself, When its transfers land, Then the indexer records them as if the API had made them, held ones included", async () => {
    /** The agent's own signed transfer of `amount` to bob, sent without the API, once it has settled. */
    const soloPaysBob = async (amount: bigint) => {
      const sent = await sendAgentSignedTransfer(given.api, {
        agentAccountId: given.solo.row.id,
        to: given.bob.account,
        amount,
      });
      await settle();
      return { id: idFromBytes("tr", sent.transferId), signature: sent.signature };
    };
    // When the agent sends 20 USDG to bob, below its HITL threshold, without the API
    const { id: directId, ...direct } = await soloPaysBob(usdg(20));
    // Then the transfer is recorded, confirmed, with no key behind it
    expect(await given.api.transferRow(directId)).toMatchObject({
      id: directId,
      accountId: given.solo.row.id,
      status: "confirmed",
      phase: "settled",
      apiKeyId: null,
      fromHandle: given.solo.row.handle,
      to: given.bob.account.handle,
      recipientAddress: given.bob.account.publicKey,
      confidential: false,
      asset: "USDG",
      txSignature: direct.signature,
      confirmedAt: expect.any(String),
    });
    // ... its facts fired once, to the agent; bob's once, to bob
    const soloSent: SentTransfer = {
      transferId: directId,
      senderId: given.solo.row.id,
      senderHandle: given.solo.row.handle,
      recipient: given.bob,
      outcome: "confirmed",
    };
    expectTransferFacts(await given.world.events(), soloSent);
    // ... and the agent's own key reads it like any of its transfers
    const agentClient = given.api.clientFor(given.solo.key.value);
    expect(await agentClient.call("getTransfer", { params: { transfer_id: directId } })).toMatchObject({
      transfer_id: directId,
      status: "confirmed",
      from: given.solo.row.handle,
      to: given.bob.account.handle,
      tx_signature: direct.signature,
    });

    // When it sends 60 USDG, above its threshold, the same way
    const { id: heldId, ...held } = await soloPaysBob(usdg(60));
    // Then the indexer recorded the hold for the owner: a pending transfer, its agent transaction
    expect(await given.api.transferRow(heldId)).toMatchObject({
      status: "pending",
      phase: "held",
      apiKeyId: null,
      to: given.bob.account.handle,
      txSignature: held.signature,
    });
    const transaction = await holdOf(heldId);
    expect(transaction).toMatchObject({
      agentAccountId: given.solo.row.id,
      ownerAccountId: given.alice.account.id,
      status: "pending_approval",
      to: given.bob.account.handle,
      confidential: false,
    });
    const transactionId = transaction?.id ?? "";
    expect(await given.api.chain.getAccount(transaction?.holdAddress ?? "")).not.toBeNull();
    const pendingEvents = about(
      await given.world.events(),
      "agent.transaction.pending_approval",
      transactionId,
    );
    expect(pendingEvents).toHaveLength(1);
    expect(pendingEvents[0]).toMatchObject({ accountId: given.alice.account.id });
    expect(pendingEvents[0]?.payload).toMatchObject({
      account: given.solo.row.handle,
      counterparty: given.bob.account.handle,
      transfer_id: heldId,
      tx_signature: held.signature,
    });
    const { pending } = await given.alice.client.call("listPendingApprovals");
    expect(pending.map((item) => item.transaction_id)).toContain(transactionId);

    // When alice approves it through the API
    const approval = await given.alice.client.call("approveTransaction", {
      params: { transaction_id: transactionId },
    });
    expect(approval).toMatchObject({ status: "approved", transfer_id: heldId });
    await settle();
    // Then the transfer is confirmed, and each of its facts fired exactly once
    expect(await given.api.transferRow(heldId)).toMatchObject({
      status: "confirmed",
      txSignature: approval.tx_signature,
      confirmedAt: expect.any(String),
    });
    const events = await given.world.events();
    expectTransferFacts(events, { ...soloSent, transferId: heldId });
    expect(about(events, "agent.transaction.pending_approval", transactionId)).toHaveLength(1);
    expect(about(events, "agent.transaction.approved", transactionId)).toHaveLength(1);
    expectEachFactOnce(events);
  });

  it("Given a held transfer its owner approves on chain without the API, Then the indexer records the approval, confirms the transfer and tells the recipient, once each", async () => {
    // Given a hold of the agent's, recorded, and its key's usage
    const held = await holdBotTransfer("@merchant", "55");
    await settle();
    const usageBefore = await keyTransferCount(given.bot.key.id);
    // When alice's wallet approves it on chain directly (the API never hears of it)
    const svc = given.api.service.context;
    const pending = address((await given.api.holdRow(held.transactionId)).holdAddress);
    const account = await given.api.chain.getAccount(pending);
    if (account === null) throw new Error(`no hold at ${pending}`);
    const approve = await buildPendingApproveInstruction({
      owner: await walletSignerOf(svc, given.alice.account.id),
      pending,
      hold: getPendingTransactionDecoder().decode(account.data),
      programAddress: address(given.api.chain.programId),
    });
    const { signature, wire } = await signTransactionToWire({
      feePayer: svc.feePayer,
      instructions: [approve],
      blockhash: (await given.api.chain.getLatestBlockhash()).blockhash,
    });
    await given.api.chain.sendTransaction(wire, { preflight: true });
    await settle();
    // Then the agent transaction is approved by that transaction, the transfer confirmed by it
    expect(await given.api.holdRow(held.transactionId)).toMatchObject({
      status: "approved",
      txSignature: signature,
      decidedAt: expect.any(String),
    });
    expect(await given.api.transferRow(held.transferId)).toMatchObject({
      status: "confirmed",
      phase: "settled",
      txSignature: signature,
      confirmedAt: expect.any(String),
    });
    // ... each fact fired once (the merchant's included), and the key counts the transfer once
    const events = await given.world.events();
    expectTransferFacts(events, fromBot(given.merchant, held.transferId));
    expect(about(events, "agent.transaction.approved", held.transactionId)).toHaveLength(1);
    expect(await keyTransferCount(given.bot.key.id)).toBe(usageBefore + 1);
    expectEachFactOnce(events);
  });

  it("Given a stopped indexer, When transfers land meanwhile and a new indexer starts on the same database, Then it resumes at its checkpoint and adds exactly the new facts", async () => {
    // Given the outbox, and the indexer stopped
    await given.world.catchUp();
    const before = await given.world.events();
    await given.world.stopIndexer();
    // When alice pays bob and the merchant through the API meanwhile
    const toBob = await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "1", confidential: false },
    });
    const toMerchant = await given.alice.client.call("createTransfer", {
      body: { to: "@merchant", amount: "2", confidential: false },
    });
    const added = [
      fromAlice(given.bob, toBob.transfer_id),
      fromAlice(given.merchant, toMerchant.transfer_id),
    ];
    await given.api.slots(3);
    // ... nobody has told the recipients yet (only the indexer does)
    for (const sent of added) {
      expect(about(await given.world.events(), "transfer.confirmed", sent.transferId, "received")).toEqual(
        [],
      );
    }
    // ... and a new indexer starts and catches up
    await given.world.restartIndexer();
    await given.world.catchUp();
    // Then the checkpoint moved to the newest program transaction
    expect(await given.world.checkpointSignature()).toBe(toMerchant.tx_signature);
    expect(await given.world.checkpointSignature()).toBe(await given.world.newestConfirmedProgramSignature());
    // ... the new transfers have all their facts, the recipients' included
    const after = await given.world.events();
    for (const sent of added) expectTransferFacts(after, sent);
    // ... and the outbox grew by exactly those facts: three per transfer, nothing earlier repeated
    expect(after).toHaveLength(before.length + 3 * added.length);
    const byId = new Map(after.map((event) => [event.id, event]));
    for (const event of before) expect(byId.get(event.id)).toEqual(event);
    expectEachFactOnce(after);
  });

  it("Given a running indexer, When GET /health, Then 200 with its leadership and checkpoint; an unknown route is 404", async () => {
    const server = await startIndexerServer(given.world.indexer, { host: "127.0.0.1", port: 0 });
    try {
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({
        status: "ok",
        leader: true,
        checkpoint: { signature: await given.world.checkpointSignature(), slot: expect.any(Number) },
        last_error: null,
      });
      const unknown = await fetch(`${server.url}/v1/transfers`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { code: "not_found" } });
    } finally {
      await server.close();
    }
  });
});
