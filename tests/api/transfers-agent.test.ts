/**
 * An agent spending with its own agent-scoped key (spec 4.1 under the on-chain spend policy of
 * 2.4 and 3.2): within its limits the transfer executes, public or confidential; above its
 * per-transaction limit the program refuses it (`422 policy_violation` naming the rule); above its
 * HITL threshold the program holds it for the owner (`approval` in the answer, the agent
 * transaction and its `agent.transaction.pending_approval` event for the owner). The key's usage
 * counts what moved, in a total only the owner's secret decrypts.
 *
 * One agent, `@alice/bot`: per transaction 100, daily 250, HITL 50 USDG. The steps share its state
 * (public spends must come before its first confidential spend of the day), so they run in order.
 */
import { issueApiKey } from "@cpay/api";
import { findPolicyPda } from "@cpay/sdk";
import { readRemainingToday } from "@cpay/sdk/agent-client";
import { readProverState, SECONDS_PER_DAY } from "@cpay/sdk/agent-confidential";
import { ApiRequestError, type CallInput, type TTransferDetail } from "@cpay/sdk/api";
import {
  availableBalance,
  decryptElGamal,
  decryptEncryptedTotal,
  decryptPendingBalance,
  encryptedTotalFromBase64,
  findTokenAccount,
  readTransferMemo,
} from "@cpay/sdk/confidential";
import {
  agentBudgetBinding,
  deriveViewingKeys,
  importAccountSecret,
  openTransferDetails,
  remainingBudgetOf,
} from "@cpay/sdk/sealed";
import { address } from "@solana/kit";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, usdg } from "../support/api-world";
import { landedTransaction } from "../support/chain-reads";
import { confidentialStateOn } from "../support/confidential-state";
import { eventually } from "../support/eventually";
import { agentKeysFromOwnerSecret, keysFromSecret } from "../support/holder-keys";
import { confidentialUsdgOn, publicUsdgOn } from "../support/usdg-balances";
import { TEST_POLICY } from "./support/agents";

describe("an agent spending with its own key", () => {
  const given = apiSuite({
    accounts: ["alice", "bob"],
    setUp: async ({ world, alice }) => {
      const created = await alice.client.call("createAgent", {
        body: { name: "bot", spend_policy: TEST_POLICY },
      });
      await world.fund(await world.accountRow(created.account_id), {
        confidential: usdg(300),
        public: usdg(300),
      });
      const agentKey = await issueApiKey(world.service.context, {
        accountId: created.account_id,
        name: "bot key",
        environment: "test",
      });
      return { agentId: created.account_id, agentKey, agent: world.clientFor(agentKey.value) };
    },
  });

  async function count(table: "transfers" | "events" | "holds"): Promise<number> {
    const { db } = given.world.service.context;
    const [row] = await db.read((q) => q.select({ n: sql<number>`count(*)` }).from(db.tables[table]));
    return Number(row?.n);
  }

  const bobKeys = () => keysFromSecret(given.bob.confidentialSecret);
  /** The agent's keys as its owner derives them from her own secret (nothing else is needed). */
  const agentKeys = () => agentKeysFromOwnerSecret(given.alice.confidentialSecret, "alice/bot");
  const bobPublic = () => publicUsdgOn(given.world.chain, given.bob.account.publicKey);
  const bobPending = async () =>
    (await confidentialUsdgOn(given.world.chain, given.bob.account.publicKey, bobKeys())).pending;

  function settled(id: string): Promise<TTransferDetail> {
    return eventually(
      () => given.agent.call("getTransfer", { params: { transfer_id: id } }),
      (transfer) => transfer.status !== "pending",
    );
  }

  async function refusal(input: CallInput<"createTransfer">): Promise<ApiRequestError> {
    const error = await given.agent.call("createTransfer", input).catch((caught: unknown) => caught);
    if (!(error instanceof ApiRequestError))
      throw new Error(`expected a refusal, got ${JSON.stringify(error)}`);
    return error;
  }

  it("executes a public transfer within its limits, with a memo bob can read", async () => {
    // Given bob's public balance
    const before = await bobPublic();
    // When the agent sends 10 USDG publicly to @bob with a memo
    const created = await given.agent.call("createTransfer", {
      body: { to: "@bob", amount: "10", confidential: false, memo: "order 55" },
    });
    // Then it executes and settles, and exactly 10 USDG reached bob
    expect(created).toMatchObject({ to: "@bob", confidential: false, approval: null });
    expect(await settled(created.transfer_id)).toMatchObject({ status: "confirmed", from: "@alice/bot" });
    expect(await bobPublic()).toBe(before + usdg(10));
    // ... and the same transaction carries the record whose memo bob and the owner decrypt
    const transaction = await landedTransaction(given.world.chain, created.tx_signature);
    if (transaction === null) throw new Error("no transaction");
    expect(
      (await readTransferMemo({ transaction, keys: bobKeys(), chain: given.world.chain })).memoText,
    ).toBe("order 55");
    expect(
      (await readTransferMemo({ transaction, keys: agentKeys(), chain: given.world.chain })).memoText,
    ).toBe("order 55");
  });

  it("is refused by its policy above its per-transaction limit (public), before anything is written", async () => {
    // Given the counts before
    const events = await count("events");
    const transfers = await count("transfers");
    // When the agent sends 150 USDG, above its 100 USDG per-transaction limit
    const error = await refusal({ body: { to: "@bob", amount: "150", confidential: false } });
    // Then the program's rule is named, and the message quotes no amount
    expect(error).toMatchObject({
      status: 422,
      code: "policy_violation",
      param: "per_transaction_limit_usdg",
    });
    expect(error.message).not.toMatch(/150|100/);
    // ... checked before the balance and before anything is written or sent (an agent key must not
    // learn its balance from which refusal comes back): no transfer row, no event
    expect(await count("transfers")).toBe(transfers);
    expect(await count("events")).toBe(events);
  });

  it("is held for its owner above the HITL threshold (public)", async () => {
    // Given bob's balance and the counts before
    const before = await bobPublic();
    const held = await count("holds");
    // When the agent sends 60 USDG, above its 50 USDG threshold
    const created = await given.agent.call("createTransfer", {
      body: { to: "@bob", amount: "60", confidential: false },
    });
    // Then the answer is pending with the approval the owner must give, and nothing moved
    expect(created.status).toBe("pending");
    expect(created.approval?.transaction_id).toMatch(/^tx_[a-z2-7]{26}$/);
    expect(Date.parse(created.approval?.expires_at ?? "")).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
    expect(await bobPublic()).toBe(before);
    // ... the held transaction is recorded for the owner, at the on-chain hold
    const { db } = given.world.service.context;
    const [transaction] = await db.read((q) =>
      q
        .select()
        .from(db.tables.holds)
        .where(eq(db.tables.holds.id, created.approval?.transaction_id as string)),
    );
    expect(await count("holds")).toBe(held + 1);
    expect(transaction).toMatchObject({
      agentAccountId: given.agentId,
      ownerAccountId: given.alice.account.id,
      transferId: created.transfer_id,
      status: "pending_approval",
      to: "@bob",
      confidential: false,
      expiresAt: created.approval?.expires_at,
    });
    expect(await given.world.chain.getAccount(transaction?.holdAddress as string)).not.toBeNull();
    expect(await given.world.transferRow(created.transfer_id)).toMatchObject({
      phase: "held",
      holdId: transaction?.id,
      txSignature: created.tx_signature,
    });
    // ... the owner's event fired once, without an amount
    const events = await db.read((q) =>
      q
        .select()
        .from(db.tables.events)
        .where(eq(db.tables.events.resourceId, transaction?.id as string)),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: "agent.transaction.pending_approval",
      accountId: given.alice.account.id,
    });
    expect(JSON.parse(events[0]?.payload as string)).toEqual({
      event: "agent.transaction.pending_approval",
      event_id: events[0]?.id,
      account: "@alice/bot",
      direction: "sent",
      counterparty: "@bob",
      asset: "USDG",
      confidential: false,
      tx_signature: created.tx_signature,
      transaction_id: transaction?.id,
      transfer_id: created.transfer_id,
      timestamp: expect.any(String),
    });
    // ... and the transfer shows its approval when read back, still pending
    await given.world.slots(3);
    expect(
      await given.agent.call("getTransfer", { params: { transfer_id: created.transfer_id } }),
    ).toMatchObject({
      status: "pending",
      approval: created.approval,
    });
  });

  it("refuses a memo on a confidential transfer, before anything is written", async () => {
    const before = await count("transfers");
    const error = await refusal({ body: { to: "@bob", amount: "1", memo: "hello" } });
    expect(error).toMatchObject({ status: 400, code: "invalid_request", param: "memo" });
    expect(await count("transfers")).toBe(before);
  });

  it("executes a confidential transfer within its limits", async () => {
    // Given bob's pending confidential balance
    const before = await bobPending();
    // When the agent sends 20 USDG confidentially
    const created = await given.agent.call("createTransfer", { body: { to: "@bob", amount: "20" } });
    // Then it executes and settles, and exactly 20 USDG reached bob's pending balance
    expect(created).toMatchObject({ confidential: true, approval: null });
    expect((await settled(created.transfer_id)).status).toBe("confirmed");
    expect(await bobPending()).toBe(before + usdg(20));
    // ... and its final transaction has no room for a record with the API's longest memo (why a memo is
    // refused above): the record adds its receipt (32 bytes), the instruction (40 bytes) and an
    // envelope of 33 bytes + the memo (up to 200) to a packet limited to 1,232 bytes.
    const final = await landedTransaction(given.world.chain, created.tx_signature);
    expect(final).not.toBeNull();
    expect((final?.wire.length ?? 0) + 32 + 40 + 33 + 200).toBeGreaterThan(1232);
  });

  it("receives from its owner by handle, and applies that credit before its next confidential spend", async () => {
    // Given the agent's confidential balances, read with the keys its owner derives
    const agentToken = await findTokenAccount(
      (await given.world.accountRow(given.agentId)).publicKey,
      given.world.chain.usdgMint,
    );
    const state = async () => {
      const current = await confidentialStateOn(given.world.chain, agentToken);
      if (current === null) throw new Error("the agent has no confidential account");
      return current;
    };
    const availableBefore = availableBalance(await state(), agentKeys());
    // When its owner sends it 5 USDG confidentially by its handle
    await given.world.fund(given.alice.account, { confidential: usdg(10) });
    const funding = await given.alice.client.call("createTransfer", {
      body: { to: "@alice/bot", amount: "5" },
    });
    // Then the credit waits in the agent's pending balance
    expect(funding).toMatchObject({ to: "@alice/bot", confidential: true });
    expect(decryptPendingBalance(await state(), agentKeys())).toBe(usdg(5));
    // When the agent spends 1 USDG confidentially
    await given.agent.call("createTransfer", { body: { to: "@bob", amount: "1" } });
    // Then the credit was applied first, and the spend came out of the whole balance
    expect((await state()).pendingBalanceCreditCounter).toBe(0n);
    expect(availableBalance(await state(), agentKeys())).toBe(availableBefore + usdg(5) - usdg(1));
  });

  it("is refused above its per-transaction limit (confidential), and publicly after a confidential spend", async () => {
    // When the agent sends 150 USDG confidentially
    const overLimit = await refusal({ body: { to: "@bob", amount: "150" } });
    // Then the per-transaction rule refuses it
    expect(overLimit).toMatchObject({
      status: 422,
      code: "policy_violation",
      param: "per_transaction_limit_usdg",
    });
    // When it now spends publicly, the day already holding a confidential spend
    const publicAfter = await refusal({ body: { to: "@bob", amount: "5", confidential: false } });
    // Then the program refuses: it cannot add a public amount to a total it cannot see
    expect(publicAfter).toMatchObject({ status: 422, code: "policy_violation", param: "confidential" });
  });

  it("is held above the HITL threshold (confidential), and other spends wait for that hold", async () => {
    // When the agent sends 70 USDG confidentially
    const before = await bobPending();
    const created = await given.agent.call("createTransfer", { body: { to: "@bob", amount: "70" } });
    // Then it is held for the owner, nothing moved
    expect(created).toMatchObject({ status: "pending", confidential: true });
    expect(created.approval?.transaction_id).toMatch(/^tx_/);
    expect(await bobPending()).toBe(before);
    expect((await given.world.transferRow(created.transfer_id)).phase).toBe("held");
    // When it sends anything else confidentially while the hold is open
    const waiting = await refusal({ body: { to: "@bob", amount: "1" } });
    // Then the policy path says why
    expect(waiting).toMatchObject({ status: 422, code: "policy_violation", param: "confidential" });
  });

  it("counts only the transfers that moved funds on the agent's key, in a total the owner decrypts", async () => {
    // Given the agent key's usage row
    const { db } = given.world.service.context;
    const [key] = await db.read((q) =>
      q.select().from(db.tables.apiKeys).where(eq(db.tables.apiKeys.id, given.agentKey.id)),
    );
    // Then three transfers moved funds (10 public, 20 and 1 confidential); holds and refusals do not count
    expect(key?.transferCount).toBe(3);
    expect(
      decryptEncryptedTotal(encryptedTotalFromBase64(key?.transferredTotal as string), agentKeys()),
    ).toBe(usdg(31));
  });

  it("keeps an agent's transfers out of its owner's view", async () => {
    // Given one of the agent's transfers
    const [first] = (await given.agent.call("listTransfers")).transfers;
    // When its owner reads it with her own key
    const error = await given.alice.client
      .call("getTransfer", { params: { transfer_id: first?.transfer_id as string } })
      .catch((caught: unknown) => caught);
    // Then it is not hers: 404, as for any other account's transfer
    expect(error).toMatchObject({ status: 404, code: "transfer_not_found" });
  });

  it("shows its owner, and no one else, what is left today; a new day starts from the full limits", async () => {
    // Given the agent's Policy as the chain holds it, read by the SDK with the keys its owner derives
    const row = await given.world.accountRow(given.agentId);
    const [policy] = await findPolicyPda(
      { agent: address(row.publicKey) },
      { programAddress: address(given.world.chain.programId) },
    );
    const chainState = await readProverState(given.world.chain, { policy, keys: agentKeys() });
    expect(chainState.publicSpentToday).toBe(usdg(10));
    expect(chainState.confidentialSpentToday).toBe(usdg(21));
    // When its owner asks for its budget
    const budget = await given.alice.client.call("getAgentBudget", { params: { account_id: given.agentId } });
    // Then the day is the cluster's, and the answer holds no amount in plaintext
    const { unixTimestamp } = await given.world.testClock.clock();
    expect(budget.day).toBe(new Date(Number(unixTimestamp) * 1000).toISOString().slice(0, 10));
    expect(budget).toMatchObject({ account_id: given.agentId, handle: "@alice/bot", daily_limit_usdg: 250 });
    // ... the sealed public spend opens, with her secret, to exactly the chain's spent_today
    const ownerSecret = importAccountSecret(given.alice.confidentialSecret);
    const opened = openTransferDetails({
      sealed: budget.public_spent_sealed,
      viewer: deriveViewingKeys(ownerSecret),
      boundTo: agentBudgetBinding(given.agentId, budget.day),
    });
    expect(opened.amount).toBe(chainState.publicSpentToday);
    // ... the confidential part decrypts, with the agent's keys, to exactly the confidential spend
    const spent = budget.confidential_spent;
    expect(spent).not.toBeNull();
    const ciphertext = new Uint8Array(Buffer.from(spent?.ciphertext ?? "", "base64"));
    expect(decryptElGamal(ciphertext, agentKeys())).toBe(chainState.confidentialSpentToday);
    // ... and the browser's reading is the SDK's: 250 - 10 - 21 left, 100 at most in one transfer
    const remaining = await readRemainingToday(given.world.chain, { policy, keys: agentKeys() });
    expect(remaining).toEqual({ daily: usdg(219), perTransaction: usdg(100) });
    expect(remainingBudgetOf({ budget, ownerSecret })).toEqual(remaining);
    // When another account or the agent itself asks
    const stranger = await refusalOf(
      given.bob.client.call("getAgentBudget", { params: { account_id: given.agentId } }),
    );
    const itself = await refusalOf(
      given.agent.call("getAgentBudget", { params: { account_id: given.agentId } }),
    );
    // Then each is refused as on the agent's spend policy
    expect(stranger).toMatchObject({ status: 403, code: "not_agent_owner" });
    expect(itself).toMatchObject({ status: 403, code: "agent_key_not_allowed" });
    // When the cluster's clock passes UTC midnight (before the open hold's window ends)
    await given.world.testClock.warpTime(Number(SECONDS_PER_DAY - (unixTimestamp % SECONDS_PER_DAY)) + 1);
    const nextDay = await given.alice.client.call("getAgentBudget", {
      params: { account_id: given.agentId },
    });
    // Then yesterday's counters count 0: the sealed spend opens to 0, no confidential spend today
    expect(nextDay.day).not.toBe(budget.day);
    expect(nextDay.confidential_spent).toBeNull();
    expect(remainingBudgetOf({ budget: nextDay, ownerSecret })).toEqual({
      daily: usdg(250),
      perTransaction: usdg(100),
    });
    // ... and yesterday's envelope does not pass for today's
    expect(() =>
      remainingBudgetOf({
        budget: { ...nextDay, public_spent_sealed: budget.public_spent_sealed },
        ownerSecret,
      }),
    ).toThrow(expect.objectContaining({ code: "malformed" }));
  });
});
