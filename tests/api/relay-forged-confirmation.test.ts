/**
 * A relayed transfer's records follow what the chain did, never what a transaction claims: a
 * self-custody agent with no funds relays its own `transfer_record` beside an `agent_transfer` the
 * program holds, then a second transaction that fails. The transfer must stay held — listed for
 * the owner, never `confirmed` — and the merchant it names must never be told it was paid.
 */
import { randomBytes } from "node:crypto";
import { idFromBytes } from "@cpay/ledger/ids";
import { buildAgentTransferInstruction, buildTransferRecordInstruction } from "@cpay/sdk";
import { readAgentAccount } from "@cpay/sdk/agent-confidential";
import { findTokenAccount } from "@cpay/sdk/confidential";
import { type Address, address, createNoopSigner } from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import { describe, expect, it } from "vitest";
import { indexerSuite } from "../indexer/support/indexer-suite";
import { refusalOf, usdg } from "../support/api-world";
import { eventually } from "../support/eventually";
import { perSuite } from "../support/shared-set-up";
import { startWebhookEndpoint } from "../support/webhook-endpoint";
import { agentSigned, createSelfCustodyAgent } from "./support/self-custody";

interface Delivery {
  readonly event: string;
  readonly transfer_id: string;
  readonly direction?: string;
}

describe("a relayed transfer record beside a held transfer", () => {
  const delivered: Delivery[] = [];
  // The merchant's receiver starts before the world and stops after it (after-hooks run in reverse).
  const endpoint = perSuite(
    async () => ({
      receiver: await startWebhookEndpoint({
        onDelivery: ({ body }) => {
          delivered.push(JSON.parse(body) as Delivery);
        },
      }),
    }),
    ({ receiver }) => receiver.close(),
  );
  const given = indexerSuite({
    env: { WEBHOOKS_ALLOW_LOCAL: "1" },
    accounts: { mallory: "mallory", merchant: { handle: "merchant", type: "business" } },
    setUp: async ({ api, mallory, merchant }) => {
      const bot = await createSelfCustodyAgent(api, mallory, "bot");
      await api.fund(mallory.account, { public: usdg(10) });
      await merchant.client.call("createWebhook", {
        body: {
          url: `${endpoint.receiver.url}/merchant`,
          events: ["transfer.confirmed"],
        },
      });
      return { bot };
    },
  });

  /** The agent's `agent_transfer` of `amount` USDG to the merchant under `transferId`, with its ATA. */
  async function agentTransfer(transferId: Uint8Array, amount: bigint) {
    const feePayer = createNoopSigner(given.api.service.context.feePayer.address);
    const mint = address(given.api.chain.usdgMint);
    const recipient = address(given.merchant.account.publicKey);
    const [source, destination] = await Promise.all([
      findTokenAccount(given.bot.pda, mint),
      findTokenAccount(recipient, mint),
    ]);
    const transfer = await buildAgentTransferInstruction({
      agentSigner: given.bot.signer,
      agent: given.bot.pda,
      nextHoldNonce: (await readAgentAccount(given.api.chain, given.bot.pda)).nextHoldNonce,
      mint,
      source,
      destination,
      amount,
      transferId,
      payer: feePayer,
      recipientHandle: "merchant",
      programAddress: address(given.api.chain.programId),
    });
    return { feePayer, mint, source, destination: destination as Address, transfer };
  }

  const until = <T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> =>
    eventually(read, done);

  it("Given tx0 = [transfer_record(X), agent_transfer(X) held] and a failing tx1, When relayed, Then X is held for the owner, never confirmed, and the merchant hears nothing of it", async () => {
    const x = new Uint8Array(randomBytes(16));
    const id = idFromBytes("tr", x);
    const held = await agentTransfer(x, usdg(60));
    const record = await buildTransferRecordInstruction({
      sender: given.bot.signer,
      payer: held.feePayer,
      transferId: x,
      confidential: false,
      memo: new Uint8Array(),
      source: held.source,
      destination: held.destination,
      mint: held.mint,
      programAddress: address(given.api.chain.programId),
    });
    const ata = getCreateAssociatedTokenIdempotentInstruction({
      payer: held.feePayer,
      ata: held.destination,
      owner: address(given.merchant.account.publicKey),
      mint: held.mint,
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    });
    const tx0 = await agentSigned(given.api, [ata, record, held.transfer]);
    const tx1 = await agentSigned(given.api, [
      (await agentTransfer(new Uint8Array(randomBytes(16)), usdg(150))).transfer,
    ]);

    const refused = await refusalOf(
      given.api
        .clientFor(given.bot.key.value)
        .call("relayTransactions", { body: { transactions: [tx0, tx1] } }),
    );
    expect(refused.status).toBe(422);

    await given.api.slots(2);
    await given.world.catchUp();
    const row = await given.api.transferRow(id);
    expect(row.status).not.toBe("confirmed");
    expect(row.phase).toBe("held");
    const pending = await given.mallory.client.call("listPendingApprovals", {});
    expect(row.holdId).not.toBeNull();
    expect(pending.pending.map((hold) => hold.transaction_id)).toContain(row.holdId);
    const events = await given.world.events();
    expect(events.filter((event) => event.type === "transfer.confirmed" && event.resourceId === id)).toEqual(
      [],
    );

    // A real payment to the merchant afterwards: its webhook arrives, X's never did.
    const paid = await given.mallory.client.call("createTransfer", {
      body: { to: "@merchant", amount: "1", confidential: false },
    });
    await given.api.slots(2);
    await given.world.catchUp();
    await until(
      () => delivered.filter((delivery) => delivery.transfer_id === paid.transfer_id).length,
      (count) => count >= 1,
    );
    expect(delivered.filter((delivery) => delivery.transfer_id === id)).toEqual([]);
  });
});
