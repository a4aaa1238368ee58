import { walletSignerOf } from "@cpay/api/vault";
import { signTransactionToWire } from "@cpay/localnet/cluster";
import { buildPendingApproveInstruction, getPendingTransactionDecoder } from "@cpay/sdk";
import { readAgentAccount, rejectHold } from "@cpay/sdk/agent-confidential";
import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, usdg } from "../support/api-world";
import { eventually } from "../support/eventually";
import { createHoldingBots, eventsOf, TEST_POLICY } from "./support/agents";
import {
  agentKeysOf,
  confidentialUsdg,
  expectFailedOnce,
  expectHoldReleased,
  holdAgentTransfer,
  publicUsdg,
} from "./support/held-transfer";

const WINDOW_SECONDS = 60;

describe("expiry of held agent transactions", () => {
  const given = apiSuite({
    accounts: ["alice", "bob"],
    setUp: ({ world, alice }) =>
      createHoldingBots(world, alice, { ...TEST_POLICY, approval_window_seconds: WINDOW_SECONDS }),
  });

  const approve = (id: string) =>
    given.alice.client.call("approveTransaction", { params: { transaction_id: id } });
  const reject = (id: string) =>
    given.alice.client.call("rejectTransaction", { params: { transaction_id: id } });

  const decided = (id: string) =>
    eventually(
      () => given.world.holdRow(id),
      (row) => row.status !== "pending_approval",
    );

  it("Given a public hold whose window passed, When the owner decides, Then 409 transaction_expired, and the job closes it with nothing moved", async () => {
    const held = await holdAgentTransfer(given.world, given.publicBot, {
      to: "@bob",
      amount: "60",
      confidential: false,
    });
    const [bobBefore, agentBefore] = [
      await publicUsdg(given.world, given.bob.account.publicKey),
      await publicUsdg(given.world, given.publicBot.agent.public_key),
    ];
    const pendingAddress = (await given.world.holdRow(held.transactionId)).holdAddress;
    await given.world.testClock.warpTime(WINDOW_SECONDS + 1);

    const listed = (await given.alice.client.call("listPendingApprovals")).pending.map(
      (item) => item.transaction_id,
    );
    expect(listed).not.toContain(held.transactionId);
    for (const attempt of [approve, reject]) {
      const failure = await refusalOf(attempt(held.transactionId));
      expect([failure.status, failure.code]).toEqual([409, "transaction_expired"]);
    }

    const row = await decided(held.transactionId);
    expect(row.status).toBe("expired");
    expect(row.txSignature).not.toBeNull();
    expect(await given.world.chain.getAccount(pendingAddress)).toBeNull();
    await expectFailedOnce(given.world, held, { phase: "settled", failureCode: "expired" });
    expect(await eventsOf(given.world, "agent.transaction.approved", held.transactionId)).toHaveLength(0);
    expect(await publicUsdg(given.world, given.bob.account.publicKey)).toBe(bobBefore);
    expect(await publicUsdg(given.world, given.publicBot.agent.public_key)).toBe(agentBefore);
    // After the job too.
    const after = await refusalOf(approve(held.transactionId));
    expect([after.status, after.code]).toEqual([409, "transaction_expired"]);
  });

  it("Given a confidential hold whose window passed, When the job runs, Then its contexts are closed, nothing moved and the agent can spend again", async () => {
    const keys = agentKeysOf(given.alice, given.confidentialBot);
    const before = await confidentialUsdg(given.world, given.confidentialBot.agent.public_key, keys);
    const held = await holdAgentTransfer(given.world, given.confidentialBot, {
      to: "@bob",
      amount: "70",
      confidential: true,
    });
    const agentAccount = await readAgentAccount(
      given.world.chain,
      address(given.confidentialBot.agent.public_key),
    );
    expect(agentAccount.confidentialHold).not.toBeNull();
    await given.world.testClock.warpTime(WINDOW_SECONDS + 1);
    const failure = await refusalOf(approve(held.transactionId));
    expect([failure.status, failure.code]).toEqual([409, "transaction_expired"]);

    expect((await decided(held.transactionId)).status).toBe("expired");
    expect(
      (await readAgentAccount(given.world.chain, address(given.confidentialBot.agent.public_key)))
        .confidentialHold,
    ).toBeNull();
    await expectHoldReleased(given.world, given.confidentialBot, held, {
      failureCode: "expired",
      agentKeys: keys,
      agentBefore: before,
    });
  });

  it("Given a hold the owner rejected on-chain without the API, When the window passes, Then the row records the rejection the chain shows", async () => {
    const held = await holdAgentTransfer(given.world, given.publicBot, {
      to: "@bob",
      amount: "52",
      confidential: false,
    });
    const pending = address((await given.world.holdRow(held.transactionId)).holdAddress);
    const owner = await walletSignerOf(given.world.service.context, given.alice.account.id);
    const { signature } = await rejectHold(given.world.chain, {
      owner,
      pending,
      payer: given.world.service.context.feePayer,
    });
    // The service learns of it: the hold is gone, so it is no longer pending.
    const failure = await refusalOf(approve(held.transactionId));
    expect([failure.status, failure.code]).toEqual([409, "transaction_not_pending"]);

    await given.world.testClock.warpTime(WINDOW_SECONDS + 1);
    const row = await decided(held.transactionId);
    expect(row).toMatchObject({ status: "rejected", txSignature: signature });
    await expectFailedOnce(given.world, held, { failureCode: "rejected" });
    expect(await eventsOf(given.world, "agent.transaction.rejected", held.transactionId)).toHaveLength(1);
  });

  it("Given a hold approved on-chain whose record was lost, When the window passes, Then it is recorded approved and the transfer confirms", async () => {
    const held = await holdAgentTransfer(given.world, given.publicBot, {
      to: "@bob",
      amount: "53",
      confidential: false,
    });
    const bobBefore = await publicUsdg(given.world, given.bob.account.publicKey);
    const pending = address((await given.world.holdRow(held.transactionId)).holdAddress);
    const account = await given.world.chain.getAccount(pending);
    if (account === null) throw new Error("no hold");
    const instruction = await buildPendingApproveInstruction({
      owner: await walletSignerOf(given.world.service.context, given.alice.account.id),
      pending,
      hold: getPendingTransactionDecoder().decode(account.data),
    });
    const { wire, signature } = await signTransactionToWire({
      feePayer: given.world.service.context.feePayer,
      instructions: [instruction],
      ...(await given.world.chain.getLatestBlockhash()),
    });
    await given.world.chain.sendTransaction(wire, { preflight: true });
    expect(await publicUsdg(given.world, given.bob.account.publicKey)).toBe(bobBefore + usdg(53));

    await given.world.testClock.warpTime(WINDOW_SECONDS + 1);
    expect(await decided(held.transactionId)).toMatchObject({ status: "approved", txSignature: signature });
    const settled = await eventually(
      () => given.world.transferRow(held.transferId),
      (row) => row.status !== "pending",
    );
    expect(settled).toMatchObject({ status: "confirmed", txSignature: signature });
    expect(await eventsOf(given.world, "agent.transaction.approved", held.transactionId)).toHaveLength(1);
    // (once to the agent that sent it, once to the recipient)
    const confirmed = await eventsOf(given.world, "transfer.confirmed", held.transferId);
    expect(confirmed.filter((event) => event.payload.direction === "sent")).toHaveLength(1);
    expect(confirmed.filter((event) => event.payload.direction === "received")).toHaveLength(1);
    expect(confirmed).toHaveLength(2);
    expect(await eventsOf(given.world, "transfer.failed", held.transferId)).toHaveLength(0);
  });
});
