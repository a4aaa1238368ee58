/**
 * Crash safety of `POST /v1/transfers`: the service writes a transfer `submitting` before it sends
 * anything, so a process that dies mid-submission leaves exactly that row. Here the crash is
 * simulated by writing such a row (old enough to be judged) and doing — or not doing — the chain
 * part the dead process would have done, with the transfer's id. The service's background job then
 * recovers every such row from the chain: landed -> submitted (signature found by transfer id), held
 * -> held, not landed -> failed with `transfer.failed`. Nothing is resubmitted, so nothing is lost or
 * moved twice; a recent row (a request possibly still running elsewhere) is left alone. The world
 * runs no indexer, so what the job did is seen alone; the indexer, the one writer of `confirmed`,
 * is started afterwards to confirm what the job recovered.
 */
import { type AccountRow, fundTestAccount, issueApiKey, type TransferRow } from "@cpay/api";
import { agentSignerOf, confidentialKeysOf, walletSignerOf } from "@cpay/api/vault";
import { bytesOfId, newId } from "@cpay/ledger/ids";
import { signTransactionToWire } from "@cpay/localnet/cluster";
import { buildAgentTransferInstruction } from "@cpay/sdk";
import { readAgentAccount } from "@cpay/sdk/agent-confidential";
import {
  addToEncryptedTotal,
  decryptEncryptedTotal,
  decryptPendingBalance,
  deriveConfidentialKeys,
  emptyEncryptedTotal,
  encryptedTotalFromBase64,
  encryptedTotalToBase64,
  findTokenAccount,
  importConfidentialSecret,
  isConfidentialError,
  transferConfidential,
} from "@cpay/sdk/confidential";
import { type Address, address } from "@solana/kit";
import { getTokenDecoder } from "@solana-program/token-2022";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { confidentialStateOn } from "../support/confidential-state";
import { eventually } from "../support/eventually";
import { startIndexerBeside } from "../support/indexer-beside";
import { jobPassRan } from "../support/job-passes";

/** A fresh `tr_` id and its 16 bytes (the on-chain transfer id), as the service makes them. */
function freshTransferId(): { id: string; bytes: Uint8Array } {
  const id = newId("tr");
  return { id, bytes: bytesOfId(id) };
}

const FIVE_MINUTES_AGO = () => new Date(Date.now() - 5 * 60_000).toISOString();

describe("crash recovery of transfers left submitting", () => {
  const given = apiSuite({
    // No indexer beside: it would record the dead process's transaction before its row is planted.
    world: { indexer: false },
    accounts: ["alice", "bob"],
    funds: { alice: { confidential: usdg(50), public: usdg(5) } },
  });

  /**
   * Writes the row a dead process left: `submitting`, no signature; by default alice's confidential
   * transfer to bob, written five minutes ago.
   */
  async function leaveSubmitting(
    id: string,
    input: {
      holder?: { account: { id: string; handle: string }; keyId: string };
      confidential?: boolean;
      createdAt?: string;
      usageIncrement?: string;
    } = {},
  ): Promise<void> {
    const holder = input.holder ?? { account: given.alice.account, keyId: given.alice.key.id };
    const { db } = given.world.service.context;
    const row: TransferRow = {
      id,
      accountId: holder.account.id,
      apiKeyId: holder.keyId,
      fromHandle: holder.account.handle,
      to: "@bob",
      recipientAddress: given.bob.account.publicKey,
      sealedDetails: null,
      asset: "USDG",
      confidential: input.confidential ?? true,
      status: "pending",
      phase: "submitting",
      txSignature: null,
      signatures: "[]",
      failureCode: null,
      usageIncrement: input.usageIncrement ?? null,
      holdId: null,
      createdAt: input.createdAt ?? FIVE_MINUTES_AGO(),
      confirmedAt: null,
    };
    await db.transaction((tx) =>
      tx
        .insert(db.tables.transfers)
        .values(row)
        .then(() => undefined),
    );
  }

  /** The row once it left `phase` (polled every 50 ms; the deadline is a safety net for a busy machine). */
  const whenLeft = (id: string, phase: "submitting" | "submitted"): Promise<TransferRow> =>
    eventually(
      () => given.world.transferRow(id),
      (row) => row.phase !== phase,
      30_000,
      50,
    );

  /** An indexer started now (from its checkpoint) until the row is confirmed or failed. */
  async function confirmedByIndexer(id: string): Promise<TransferRow> {
    const beside = await startIndexerBeside({
      service: given.world.service,
      openChain: given.world.openChain,
    });
    try {
      return await whenLeft(id, "submitted");
    } finally {
      await beside.close();
    }
  }

  /** The transfer's `transfer.confirmed` events addressed to bob (`direction: received`). */
  async function receivedByBob(id: string): Promise<number> {
    const { db } = given.world.service.context;
    const events = await db.read((q) =>
      q.select().from(db.tables.events).where(eq(db.tables.events.resourceId, id)),
    );
    return events.filter(
      (event) =>
        event.accountId === given.bob.account.id &&
        event.type === "transfer.confirmed" &&
        (JSON.parse(event.payload) as { direction?: string }).direction === "received",
    ).length;
  }

  /** The types of the events about `id`, except those addressed to bob (the recipient's). */
  async function eventTypes(id: string): Promise<string[]> {
    const { db } = given.world.service.context;
    const events = await db.read((q) =>
      q.select().from(db.tables.events).where(eq(db.tables.events.resourceId, id)),
    );
    return events
      .filter((event) => event.accountId !== given.bob.account.id)
      .map((event) => event.type)
      .sort();
  }

  async function bobPending(): Promise<bigint> {
    const state = await confidentialStateOn(
      given.world.chain,
      await findTokenAccount(given.bob.account.publicKey, given.world.chain.usdgMint),
    );
    if (state === null) throw new Error("bob has no confidential account");
    return decryptPendingBalance(
      state,
      deriveConfidentialKeys(importConfidentialSecret(given.bob.confidentialSecret)),
    );
  }

  it("confirms a transfer whose funds moved before the crash, once, with the signature that moved them", async () => {
    // Given a process that wrote the row, sent the transfer (with its record) and died before noting it
    const { id, bytes } = freshTransferId();
    const service = given.world.service.context;
    /** alice's confidential 7 USDG to bob, recorded under the transfer's id, as the process sent it. */
    const sendIt = async () =>
      transferConfidential(given.world.chain, {
        owner: await walletSignerOf(service, given.alice.account.id),
        keys: await confidentialKeysOf(service, given.alice.account),
        mint: given.world.chain.usdgMint,
        recipient: given.bob.account.publicKey,
        amount: usdg(7),
        payer: service.feePayer,
        record: { transferId: bytes },
      });
    const before = await bobPending();
    // (The chain part first: the background job runs every second and must never see the row
    // before what the dead process sent has landed.)
    const sent = await sendIt();
    await leaveSubmitting(id);
    // When the background job runs
    const submitted = await whenLeft(id, "submitting");
    // Then the transfer is submitted with the transaction that moved the funds (not confirmed: that
    // is the indexer's to say)
    const signature = sent.signatures[sent.signatures.length - 1];
    expect(submitted).toMatchObject({ phase: "submitted", status: "pending", txSignature: signature });
    expect(await eventTypes(id)).toEqual(["transfer.initiated"]);
    // ... and once an indexer runs, it is confirmed, alice and bob told once each
    const settled = await confirmedByIndexer(id);
    expect(settled).toMatchObject({ status: "confirmed", txSignature: signature, failureCode: null });
    expect(settled.confirmedAt).not.toBeNull();
    expect(await eventTypes(id)).toEqual(["transfer.confirmed", "transfer.initiated"]);
    expect(await receivedByBob(id)).toBe(1);
    // ... the funds moved exactly once, and the id cannot move them again
    expect(await bobPending()).toBe(before + usdg(7));
    const again = await sendIt().catch((error: unknown) => error);
    expect(isConfidentialError(again, "transfer_already_recorded")).toBe(true);
    expect(await bobPending()).toBe(before + usdg(7));
    // ... and the API shows it like any other transfer of alice's
    expect(await given.alice.client.call("getTransfer", { params: { transfer_id: id } })).toMatchObject({
      status: "confirmed",
      tx_signature: settled.txSignature,
    });
  });

  it("fails a transfer that never reached the chain, firing transfer.failed", async () => {
    // Given a process that wrote the row and died before sending anything
    const { id } = freshTransferId();
    const before = await bobPending();
    await leaveSubmitting(id);
    // When the background job runs
    const settled = await whenLeft(id, "submitting");
    // Then the transfer failed, nothing moved, and the failure is announced once
    expect(settled).toMatchObject({ status: "failed", failureCode: "not_landed", txSignature: null });
    expect(await eventTypes(id)).toEqual(["transfer.failed"]);
    expect(await bobPending()).toBe(before);
    expect(await given.alice.client.call("getTransfer", { params: { transfer_id: id } })).toMatchObject({
      status: "failed",
      tx_signature: null,
      confirmed_at: null,
    });
  });

  describe("an agent's transfer", () => {
    let agentRow: AccountRow;
    let keyId: string;
    let agentAddress: Address;
    /** Sends what a dead process would have sent: the agent's public transfer of `amount` to @bob. */
    let sendAsDeadProcess: (transferId: Uint8Array, amount: bigint) => Promise<string>;
    let bobPublic: () => Promise<bigint>;
    beforeAll(async () => {
      // An agent of alice's (HITL 5 USDG) with public funds and its own key
      const agent = await given.alice.client.call("createAgent", {
        body: {
          name: "crashbot",
          spend_policy: {
            per_transaction_limit_usdg: 100,
            daily_limit_usdg: 100,
            hitl_threshold_usdg: 5,
            assets: ["USDG"],
          },
        },
      });
      const service = given.world.service.context;
      const { db } = service;
      const [found] = await db.read((q) =>
        q.select().from(db.tables.accounts).where(eq(db.tables.accounts.id, agent.account_id)),
      );
      if (found === undefined) throw new Error("no agent row");
      agentRow = found;
      await fundTestAccount(service, given.world.faucet, agentRow, { confidential: 0n, public: usdg(20) });
      keyId = (await issueApiKey(service, { accountId: agent.account_id, name: "k", environment: "test" }))
        .id;
      agentAddress = address(agent.public_key);
      const mint = address(given.world.chain.usdgMint);
      const destination = await findTokenAccount(given.bob.account.publicKey, mint);
      bobPublic = async () =>
        getTokenDecoder().decode((await given.world.chain.getAccount(destination))?.data ?? new Uint8Array())
          .amount;
      sendAsDeadProcess = async (transferId, amount) => {
        const { wire } = await signTransactionToWire({
          feePayer: service.feePayer,
          instructions: [
            await buildAgentTransferInstruction({
              agentSigner: await agentSignerOf(service, agent.account_id),
              agent: agentAddress,
              nextHoldNonce: (await readAgentAccount(given.world.chain, agentAddress)).nextHoldNonce,
              mint,
              destination,
              amount,
              transferId,
              payer: service.feePayer,
              recipientHandle: "bob",
              programAddress: address(given.world.chain.programId),
            }),
          ],
          blockhash: (await given.world.chain.getLatestBlockhash()).blockhash,
        });
        return await given.world.chain.sendTransaction(wire, { preflight: true });
      };
    });

    /**
     * What a process that died mid-request leaves: the agent's public transfer of `amount` to @bob
     * sent, then its `submitting` row (with `usageIncrement`, the encrypted amount its key counts).
     * Sent before the row is written: the background job must not judge the row in between.
     */
    const diedAfterSending = async (amount: bigint, usageIncrement?: string) => {
      const { id, bytes } = freshTransferId();
      const signature = await sendAsDeadProcess(bytes, amount);
      await leaveSubmitting(id, {
        holder: { account: agentRow, keyId },
        confidential: false,
        usageIncrement,
      });
      return { id, signature };
    };

    it("is found by its id in the program's events and confirmed", async () => {
      // Given a dead process that wrote the row (with the amount's encrypted usage increment, as the
      // service writes it) and sent the agent's transfer of 4 USDG to @bob
      const agentKeys = await confidentialKeysOf(given.world.service.context, agentRow);
      const bobBefore = await bobPublic();
      const { id, signature } = await diedAfterSending(
        usdg(4),
        encryptedTotalToBase64(addToEncryptedTotal(emptyEncryptedTotal(), agentKeys.elgamalPubkey, usdg(4))),
      );
      // When the background job runs
      const submitted = await whenLeft(id, "submitting");
      expect(submitted).toMatchObject({ phase: "submitted", txSignature: signature });
      // ... and then an indexer
      const settled = await confirmedByIndexer(id);
      // Then the transfer is confirmed with that transaction, and bob got the 4 USDG once
      expect(settled).toMatchObject({ status: "confirmed", txSignature: signature });
      expect(await eventTypes(id)).toEqual(["transfer.confirmed", "transfer.initiated"]);
      expect(await receivedByBob(id)).toBe(1);
      expect(await bobPublic()).toBe(bobBefore + usdg(4));
      // ... and the agent key counted it, its encrypted total now holding the 4 USDG
      const { db } = given.world.service.context;
      const [usage] = await db.read((q) =>
        q.select().from(db.tables.apiKeys).where(eq(db.tables.apiKeys.id, keyId)),
      );
      expect(usage?.transferCount).toBe(1);
      expect(decryptEncryptedTotal(encryptedTotalFromBase64(usage?.transferredTotal ?? ""), agentKeys)).toBe(
        usdg(4),
      );
    });

    it("is recovered as held, with its agent transaction for the owner, when the program held it", async () => {
      // Given a dead process that sent a transfer above the HITL threshold (the program held it)
      const bobBefore = await bobPublic();
      const { id, signature } = await diedAfterSending(usdg(6));
      // When the background job runs
      const recovered = await whenLeft(id, "submitting");
      // Then the transfer waits for the owner, as if the request had finished
      expect(recovered).toMatchObject({ phase: "held", status: "pending", txSignature: signature });
      const { db } = given.world.service.context;
      const [held] = await db.read((q) =>
        q
          .select()
          .from(db.tables.holds)
          .where(eq(db.tables.holds.id, recovered.holdId as string)),
      );
      expect(held).toMatchObject({
        transferId: id,
        agentAccountId: agentRow.id,
        ownerAccountId: given.alice.account.id,
        status: "pending_approval",
      });
      expect(await given.world.chain.getAccount(held?.holdAddress as string)).not.toBeNull();
      expect(await eventTypes(held?.id as string)).toEqual(["agent.transaction.pending_approval"]);
      expect(await bobPublic()).toBe(bobBefore);
    });
  });

  it("leaves a recent submitting row alone: its request may still be running", async () => {
    // Given a row written just now
    const { id } = freshTransferId();
    await leaveSubmitting(id, { createdAt: new Date().toISOString() });
    // When a whole pass of the job has run since (not a time it is assumed to take)
    await jobPassRan(given.world.service.context.db, "recover-submissions");
    // Then it is untouched
    expect(await given.world.transferRow(id)).toMatchObject({ phase: "submitting", status: "pending" });
    expect(await eventTypes(id)).toEqual([]);
  });
});
