/**
 * A settle survives its API process dying between sending the payment and recording it: the
 * settlement claim is left `sending`, and the facilitator's recovery (a background job of the
 * service) settles it from the chain. A payment that landed becomes the merchant's one received
 * transfer and one webhook, and stays a duplicate; a payment that can never land (its claim older
 * than a blockhash lives, its signature unknown to the cluster) is given back, so the payer may
 * present it again. The crash is driven step by step (support/crashed-settlement.ts).
 */

import type { TWebhookEventOf } from "@cpay/sdk/api";
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import type { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentRequirements } from "@x402/core/types";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicUsdg } from "../api/support/held-transfer";
import { type ApiWorld, startApiWorld, usdg, type WorldAccount } from "../support/api-world";
import { landedTransaction } from "../support/chain-reads";
import { eventually } from "../support/eventually";
import { startWebhookEndpoint, type WebhookEndpoint } from "../support/webhook-endpoint";
import { cpayFacilitator, usdgRequirement } from "./support/cpay-facilitator";
import { crashedSettlement } from "./support/crashed-settlement";
import { keypairPayment, memo } from "./support/keypair-payment";

const PRICE = 300_000n;
/** Older than any blockhash lives (and than the recovery's threshold). */
const LONG_AGO = new Date(Date.now() - 60 * 60 * 1000);

type Delivery = TWebhookEventOf<"transfer.confirmed">;

let world: ApiWorld;
let merchant: WorldAccount;
let wallet: KeyPairSigner;
let receiver: WebhookEndpoint;
let facilitator: HTTPFacilitatorClient;
let requirements: PaymentRequirements;
const delivered: Delivery[] = [];

beforeAll(async () => {
  receiver = await startWebhookEndpoint({
    onDelivery: ({ body }) => {
      delivered.push(JSON.parse(body) as Delivery);
    },
  });
  world = await startApiWorld({ chain: "rpc", env: { WEBHOOKS_ALLOW_LOCAL: "1" } });
  merchant = await world.account("merchant", { type: "business" });
  await merchant.client.call("createWebhook", {
    body: { url: `${receiver.url}/merchant`, events: ["transfer.confirmed"] },
  });
  wallet = await generateKeyPairSigner();
  await world.faucet.mintUsdgToOwner(wallet.address, usdg(10));
  facilitator = cpayFacilitator(world.url, merchant.key.value);
  requirements = await usdgRequirement(world, facilitator, {
    payTo: merchant.account.publicKey,
    amount: PRICE,
  });
}, 300_000);

afterAll(async () => {
  await world?.close();
  await receiver?.close();
});

/** The settlement record of `messageHash`, if any. */
async function claimOf(messageHash: string) {
  const { db } = world.service.context;
  const [row] = await db.read((read) =>
    read
      .select()
      .from(db.tables.x402Settlements)
      .where(eq(db.tables.x402Settlements.messageHash, messageHash)),
  );
  return row;
}

/** A good payment of the price from the wallet, told apart from others by its memo. */
function paymentNoted(note: string) {
  return keypairPayment({
    chain: world.chain,
    payer: wallet,
    requirements,
    change: ([limit, price, transfer]) => [limit, price, transfer, memo(note)],
  });
}

describe("an x402 settlement whose API process died mid-way", () => {
  it("Given a payment sent and landed whose process died before recording it, When the recovery runs, Then the claim ends settled with the merchant's one received transfer and one webhook, and the payment stays a duplicate", async () => {
    const payment = await paymentNoted("crashed after send");
    const merchantBefore = await publicUsdg(world, merchant.account.publicKey);

    const crashed = await crashedSettlement(world.service, {
      payment,
      accountId: merchant.account.id,
      payer: wallet.address,
      sent: true,
      createdAt: new Date(),
    });
    expect((await landedTransaction(world.chain, crashed.signature)).err).toBeNull();

    const claim = await eventually(
      () => claimOf(crashed.messageHash),
      (row) => row?.status !== "sending",
    );
    expect(claim).toMatchObject({ status: "settled", signature: crashed.signature });
    const received = await merchant.client.call("listTransfers", { query: { direction: "received" } });
    expect(received.transfers).toEqual([
      expect.objectContaining({
        transfer_id: claim?.transferId,
        direction: "received",
        status: "confirmed",
        from: wallet.address,
        tx_signature: crashed.signature,
      }),
    ]);
    await eventually(
      () => delivered.filter((delivery) => delivery.transfer_id === claim?.transferId),
      (deliveries) => deliveries.length > 0,
    );
    expect(delivered.filter((delivery) => delivery.transfer_id === claim?.transferId)).toEqual([
      expect.objectContaining({
        event: "transfer.confirmed",
        direction: "received",
        tx_signature: crashed.signature,
      }),
    ]);
    expect((await publicUsdg(world, merchant.account.publicKey)) - merchantBefore).toBe(PRICE);
    expect(await facilitator.settle(payment, requirements)).toMatchObject({
      success: false,
      errorReason: "duplicate_settlement",
    });
  });

  it("Given a payment co-signed whose process died before sending it, its claim older than a blockhash lives, When the recovery runs, Then the claim is given back and the payer's payment settles when presented again", async () => {
    const payment = await paymentNoted("crashed before send");

    const crashed = await crashedSettlement(world.service, {
      payment,
      accountId: merchant.account.id,
      payer: wallet.address,
      sent: false,
      createdAt: LONG_AGO,
    });

    await eventually(
      () => claimOf(crashed.messageHash),
      (row) => row === undefined,
    );
    const settlement = await facilitator.settle(payment, requirements);
    expect(settlement).toMatchObject({
      success: true,
      payer: wallet.address,
      transaction: crashed.signature,
    });
    expect(await claimOf(crashed.messageHash)).toMatchObject({ status: "settled" });
  });
});
