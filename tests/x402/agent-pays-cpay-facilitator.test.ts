/**
 * A cpay agent pays a cpay merchant through cpay's own facilitator: the merchant's API behind
 * `@x402/express` with `HTTPFacilitatorClient` on `/v1/x402` (the merchant's API key its bearer),
 * the agent paying through `@cpay/sdk/x402` under `@x402/fetch`. The payment is the smart-wallet
 * shape — `agent_transfer` of cpay's program, its CPI TransferChecked found in simulation — on the
 * cluster's own network id. What must hold: served once; the merchant gains exactly the price; the
 * agent pays no SOL; the indexer's one record of the agent's transfer is the owner's `sent` and the
 * merchant's `received`, each with its webhook; the settlement names that transfer; a replay is
 * refused as a duplicate settlement.
 */
import { idFromBytes } from "@cpay/ledger/ids";
import type { TWebhookEventOf } from "@cpay/sdk/api";
import type { ChainPort } from "@cpay/sdk/chain";
import {
  type AgentX402Scheme,
  createAgentX402Client,
  createAgentX402Scheme,
  type SignedX402Payment,
} from "@cpay/sdk/x402";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { wrapFetchWithPayment } from "@x402/fetch";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicUsdg } from "../api/support/held-transfer";
import type { ApiWorld } from "../support/api-world";
import { lamportsOf, landedTransaction } from "../support/chain-reads";
import { eventually } from "../support/eventually";
import { startWebhookEndpoint, type WebhookEndpoint } from "../support/webhook-endpoint";
import { cpayFacilitator } from "./support/cpay-facilitator";
import { paymentOf, recordingPayments } from "./support/payment-headers";
import { type PaywalledApi, startPaywalledApi } from "./support/paywalled-api";
import { startX402World, type X402World } from "./support/x402-world";

const PRICE = 3_000_000n;
const MEMO = "agent invoice 9";

/** A transfer event as the merchant's (or owner's) webhook receives it. */
type Delivery = TWebhookEventOf<"transfer.confirmed">;

let x: X402World;
let world: ApiWorld;
let agentChain: ChainPort;
let scheme: AgentX402Scheme;
let paywalled: PaywalledApi;
let receiver: WebhookEndpoint;
const delivered: { readonly path: string; readonly delivery: Delivery }[] = [];
const signed: SignedX402Payment[] = [];
/** Every PAYMENT-SIGNATURE header the payer sent. */
const payments = recordingPayments();

async function balances() {
  return {
    agentUsdg: await publicUsdg(world, x.agent.created.public_key),
    merchantUsdg: await publicUsdg(world, x.merchant.account.publicKey),
    agentLamports: [
      await lamportsOf(world.chain, x.agent.signer.address),
      await lamportsOf(world.chain, x.agent.pda),
    ],
    reserveLamports: await lamportsOf(world.chain, world.service.context.feePayer.address),
  };
}

beforeAll(async () => {
  receiver = await startWebhookEndpoint({
    onDelivery: ({ path, body }) => {
      delivered.push({ path, delivery: JSON.parse(body) as Delivery });
    },
  });
  x = await startX402World({ env: { WEBHOOKS_ALLOW_LOCAL: "1" }, routes: () => [] });
  world = x.world;
  await x.owner.client.call("createWebhook", {
    body: { url: `${receiver.url}/owner`, events: ["transfer.confirmed"] },
  });
  await x.merchant.client.call("createWebhook", {
    body: { url: `${receiver.url}/merchant`, events: ["transfer.confirmed"] },
  });
  agentChain = await world.openChain();
  scheme = createAgentX402Scheme({
    chain: agentChain,
    agentSigner: x.agent.signer,
    agent: x.agent.pda,
    onSigned: (payment) => signed.push(payment),
  });
  paywalled = await startPaywalledApi({
    facilitatorUrl: `${world.url}/v1/x402`,
    facilitatorKey: x.merchant.key.value,
    network: x.network,
    usdgMint: world.chain.usdgMint,
    routes: [{ path: "/report", amount: PRICE, payTo: x.merchant.account.publicKey, memo: MEMO }],
  });
}, 300_000);

afterAll(async () => {
  await paywalled?.close();
  await agentChain?.close();
  await x?.close();
  await receiver?.close();
});

describe("a cpay agent paying a cpay merchant through cpay's facilitator", () => {
  it("Given the merchant's API with cpay's facilitator, When the agent fetches it, Then it is served after one payment: the merchant gains exactly the price, the agent pays no SOL, and the one transfer is the owner's sent and the merchant's received, each with its webhook", async () => {
    const before = await balances();

    const response = await wrapFetchWithPayment(
      payments.fetch,
      createAgentX402Client(scheme, agentChain),
    )(`${paywalled.url}/report`);

    expect(response.status).toBe(200);
    expect(paywalled.served.get("/report")).toBe(1);
    const settlement = decodePaymentResponseHeader(response.headers.get("PAYMENT-RESPONSE") as string);
    expect(settlement).toMatchObject({ success: true, payer: x.agent.pda, network: x.network });
    const landed = await landedTransaction(world.chain, settlement.transaction);
    expect(landed.accountKeys[0]).toBe(world.service.context.feePayer.address);
    const after = await balances();
    expect(after.merchantUsdg - before.merchantUsdg).toBe(PRICE);
    expect(before.agentUsdg - after.agentUsdg).toBe(PRICE);
    expect(after.agentLamports).toEqual(before.agentLamports);
    expect(before.reserveLamports - after.reserveLamports).toBe(landed.fee);
    // ... the settlement names the agent's own transfer, recorded once by the indexer
    expect(signed).toHaveLength(1);
    const transferId = idFromBytes("tr", (signed[0] as SignedX402Payment).transferId);
    const { x402Settlements } = world.service.context.db.tables;
    const [settled] = await world.service.context.db.read((db) =>
      db.select().from(x402Settlements).where(eq(x402Settlements.signature, settlement.transaction)),
    );
    expect(settled).toMatchObject({
      status: "settled",
      shape: "agent_transfer",
      transferId,
      accountId: x.merchant.account.id,
    });
    const received = await eventually(
      () => x.merchant.client.call("listTransfers", { query: { direction: "received" } }),
      (list) => list.transfers.length > 0,
    );
    expect(received.transfers).toEqual([
      expect.objectContaining({
        transfer_id: transferId,
        direction: "received",
        status: "confirmed",
        tx_signature: settlement.transaction,
      }),
    ]);
    const agentApi = world.clientFor(x.agent.key.value);
    const sent = await agentApi.call("listTransfers", { query: { direction: "sent" } });
    expect(sent.transfers.map((transfer) => transfer.transfer_id)).toEqual([transferId]);
    await eventually(
      () => delivered.filter(({ delivery }) => delivery.transfer_id === transferId),
      (deliveries) => deliveries.length >= 2,
    );
    expect(
      delivered
        .filter(({ delivery }) => delivery.transfer_id === transferId)
        .map(({ path, delivery }) => [path, delivery.event, delivery.direction])
        .sort(),
    ).toEqual([
      ["/merchant", "transfer.confirmed", "received"],
      ["/owner", "transfer.confirmed", "sent"],
    ]);
  });

  it("Given the agent's paid PAYMENT-SIGNATURE, When it is replayed to the API and presented to settle again, Then it is refused as a duplicate settlement and nothing moves", async () => {
    const header = payments.headers[0] as string;
    const payment = paymentOf(header);
    const facilitator = cpayFacilitator(world.url, x.merchant.key.value);
    const before = await balances();

    const replayed = await fetch(`${paywalled.url}/report`, { headers: { "PAYMENT-SIGNATURE": header } });
    const settlement = await facilitator.settle(payment, payment.accepted);

    expect(replayed.status).toBe(402);
    expect(paywalled.served.get("/report")).toBe(1);
    expect(settlement).toMatchObject({ success: false, errorReason: "duplicate_settlement" });
    expect(await balances()).toEqual(before);
  });
});
