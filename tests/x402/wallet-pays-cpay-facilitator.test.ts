/**
 * cpay sells with x402: a merchant's API behind the official `@x402/express` middleware, with the
 * service itself as its facilitator (`/v1/x402`, `HTTPFacilitatorClient` sending the merchant's API
 * key), and a plain Solana wallet paying with the official `@x402/svm` client under `@x402/fetch`.
 * The localnet process stands in for devnet: the official client knows only the official network
 * ids, so the test environment also answers devnet's (`X402_TEST_NETWORK_ALIASES`).
 *
 * The cases run in order on one world: the paid fetch first (its PAYMENT-SIGNATURE is replayed
 * later). What must hold: the resource is served once per payment; the merchant gains exactly the
 * price; the wallet pays no SOL (the fee reserve pays the fee, charged to the merchant's reserve
 * budget); the merchant sees one received transfer and its webhook. Every bad payment is refused
 * with the reason `@x402/svm`'s facilitator gives, and nothing moves or is charged.
 */

import { randomBytes } from "node:crypto";
import { address, generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { wrapFetchWithPayment } from "@x402/fetch";
import { SOLANA_DEVNET_CAIP2 } from "@x402/svm";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicUsdg } from "../api/support/held-transfer";
import { type ApiWorld, startApiWorld, usdg, type WorldAccount } from "../support/api-world";
import { lamportsOf, landedTransaction } from "../support/chain-reads";
import { eventually } from "../support/eventually";
import { startWebhookEndpoint, type WebhookEndpoint } from "../support/webhook-endpoint";
import { type FreshApi, restartApi } from "./support/fresh-api";
import { computeBudget, keypairPayment, memo, transferChecked } from "./support/keypair-payment";
import { type PaywalledApi, startPaywalledApi } from "./support/paywalled-api";

const PRICE = 1_250_000n;
/** The world's settings, which the fresh API instance of the last case is started with too. */
const ENV = {
  SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
  WEBHOOKS_ALLOW_LOCAL: "1",
  X402_TEST_NETWORK_ALIASES: SOLANA_DEVNET_CAIP2,
};
const MEMO = "order 42";

interface Delivery {
  readonly event: string;
  readonly transfer_id: string;
  readonly direction?: string;
  readonly tx_signature?: string;
}

let world: ApiWorld;
let merchant: WorldAccount;
let stranger: WorldAccount;
let wallet: KeyPairSigner;
let paywalled: PaywalledApi;
let receiver: WebhookEndpoint;
let facilitator: HTTPFacilitatorClient;
let fresh: FreshApi | undefined;
const delivered: Delivery[] = [];
/** Every PAYMENT-SIGNATURE header the wallet sent. */
const paymentHeaders: string[] = [];

const recordingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const header = request.headers.get("PAYMENT-SIGNATURE");
  if (header !== null) paymentHeaders.push(header);
  return fetch(request);
};

function walletClient(): x402Client {
  return new x402Client()
    .register(SOLANA_DEVNET_CAIP2, new ExactSvmScheme(wallet, { rpcUrl: world.localnet?.rpcUrl() as string }))
    .setSpendControls(false);
}

/** The requirement the merchant's API answers an unpaid request with. */
async function requirementOf(path: string): Promise<PaymentRequirements> {
  const response = await fetch(`${paywalled.url}${path}`);
  expect(response.status).toBe(402);
  const required = new x402HTTPClient(walletClient()).getPaymentRequiredResponse(
    (name) => response.headers.get(name),
    await response.json(),
  );
  return required.accepts[0] as PaymentRequirements;
}

/** The merchant's reserve spend today, landed and reserved (lamports), read by the API running. */
async function merchantReserveSpend(): Promise<number> {
  const { db: database } = fresh?.context ?? world.service.context;
  const { reserveUsage } = database.tables;
  const rows = await database.read((db) =>
    db
      .select()
      .from(reserveUsage)
      .where(and(eq(reserveUsage.accountId, merchant.account.id))),
  );
  return rows.reduce((sum, row) => sum + row.lamports + row.reservedLamports, 0);
}

/** Balances and charges a refused payment must leave as they were. */
async function ledger() {
  const [walletUsdg, merchantUsdg, walletLamports, reserveLamports, reserveSpend] = await Promise.all([
    publicUsdg(world, wallet.address),
    publicUsdg(world, merchant.account.publicKey),
    lamportsOf(world.chain, wallet.address),
    lamportsOf(world.chain, world.service.context.feePayer.address),
    merchantReserveSpend(),
  ]);
  return { walletUsdg, merchantUsdg, walletLamports, reserveLamports, reserveSpend };
}

/** Verify and settle of `payment` both refuse it with `reason`; nothing moves or is charged. */
async function expectRefused(payment: PaymentPayload, requirements: PaymentRequirements, reason: string) {
  const before = await ledger();
  const verdict = await facilitator.verify(payment, requirements);
  const settlement = await facilitator
    .settle(payment, requirements)
    .catch((error: { response?: unknown }) => {
      throw new Error(`settle threw: ${JSON.stringify(error.response ?? error)}`);
    });
  expect(verdict).toMatchObject({ isValid: false, invalidReason: reason });
  expect(verdict.invalidMessage?.length ?? 0).toBeGreaterThan(10);
  expect(settlement).toMatchObject({ success: false, errorReason: reason });
  expect(await ledger()).toEqual(before);
  return verdict;
}

beforeAll(async () => {
  receiver = await startWebhookEndpoint({
    onDelivery: ({ body }) => {
      delivered.push(JSON.parse(body) as Delivery);
    },
  });
  world = await startApiWorld({ chain: "rpc", env: ENV });
  [merchant, stranger] = await Promise.all([
    world.account("merchant", { type: "business" }),
    world.account("stranger", { type: "business" }),
  ]);
  await merchant.client.call("createWebhook", {
    body: { url: `${receiver.url}/merchant`, events: ["transfer.confirmed"] },
  });
  wallet = await generateKeyPairSigner();
  await world.faucet.mintUsdgToOwner(wallet.address, usdg(50));
  facilitator = new HTTPFacilitatorClient({
    url: `${world.url}/v1/x402`,
    createAuthHeaders: async () => {
      const headers = { Authorization: `Bearer ${merchant.key.value}` };
      return { verify: headers, settle: headers, supported: headers };
    },
  });
  paywalled = await startPaywalledApi({
    facilitatorUrl: `${world.url}/v1/x402`,
    facilitatorKey: merchant.key.value,
    network: SOLANA_DEVNET_CAIP2,
    usdgMint: world.chain.usdgMint,
    routes: [
      { path: "/report", amount: PRICE, payTo: merchant.account.publicKey, memo: MEMO },
      { path: "/elsewhere", amount: PRICE, payTo: stranger.account.publicKey },
    ],
  });
}, 300_000);

afterAll(async () => {
  await fresh?.close();
  await paywalled?.close();
  await world?.close();
  await receiver?.close();
});

describe("a wallet paying a cpay merchant through cpay's facilitator", () => {
  it("Given the merchant's API with cpay's facilitator, When a wallet fetches it with the official client, Then it is served after one payment: the merchant gains exactly the price, the wallet pays no SOL, the reserve pays the fee, and the merchant sees one received transfer and its webhook", async () => {
    const supported = await facilitator.getSupported();
    const before = await ledger();

    const response = await wrapFetchWithPayment(recordingFetch, walletClient())(`${paywalled.url}/report`);

    expect(supported.kinds.map((kind) => kind.network)).toContain(SOLANA_DEVNET_CAIP2);
    expect(supported.kinds[0]?.extra?.feePayer).toBe(world.service.context.feePayer.address);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ report: "paid content of /report" });
    expect(paywalled.served.get("/report")).toBe(1);
    const settlement = decodePaymentResponseHeader(response.headers.get("PAYMENT-RESPONSE") as string);
    expect(settlement).toMatchObject({ success: true, payer: wallet.address, network: SOLANA_DEVNET_CAIP2 });
    const landed = await landedTransaction(world.chain, settlement.transaction);
    expect(landed.err).toBeNull();
    expect(landed.accountKeys[0]).toBe(world.service.context.feePayer.address);
    const after = await ledger();
    expect(after.merchantUsdg - before.merchantUsdg).toBe(PRICE);
    expect(before.walletUsdg - after.walletUsdg).toBe(PRICE);
    expect(after.walletLamports).toBe(0n);
    expect(before.reserveLamports - after.reserveLamports).toBe(landed.fee);
    expect(after.reserveSpend).toBeGreaterThanOrEqual(Number(landed.fee));
    // ... one received transfer for the merchant, built from the landed transaction
    const received = await merchant.client.call("listTransfers", { query: { direction: "received" } });
    expect(received.transfers).toHaveLength(1);
    expect(received.transfers[0]).toMatchObject({
      direction: "received",
      status: "confirmed",
      from: wallet.address,
      tx_signature: settlement.transaction,
      confidential: false,
    });
    const sent = await merchant.client.call("listTransfers", { query: { direction: "sent" } });
    expect(sent.transfers).toHaveLength(0);
    const transferId = received.transfers[0]?.transfer_id as string;
    await eventually(
      () => delivered.filter((delivery) => delivery.transfer_id === transferId),
      (deliveries) => deliveries.length > 0,
    );
    expect(delivered.filter((delivery) => delivery.transfer_id === transferId)).toEqual([
      expect.objectContaining({
        event: "transfer.confirmed",
        direction: "received",
        tx_signature: settlement.transaction,
      }),
    ]);
  });

  it("Given the paid request's PAYMENT-SIGNATURE, When it is replayed to the API and presented to verify and settle again, Then it is refused as a duplicate settlement and the resource is not served again", async () => {
    const header = paymentHeaders[0] as string;
    const payment = JSON.parse(Buffer.from(header, "base64").toString()) as PaymentPayload;
    const before = await ledger();

    const replayed = await fetch(`${paywalled.url}/report`, { headers: { "PAYMENT-SIGNATURE": header } });
    const verdict = await facilitator.verify(payment, payment.accepted);
    const settlement = await facilitator.settle(payment, payment.accepted);

    expect(replayed.status).toBe(402);
    expect(paywalled.served.get("/report")).toBe(1);
    expect(verdict).toMatchObject({ isValid: false, invalidReason: "duplicate_settlement" });
    expect(settlement).toMatchObject({ success: false, errorReason: "duplicate_settlement" });
    expect(await ledger()).toEqual(before);
  });

  it("Given a payment of less than the price, When presented, Then it is refused (amount mismatch) and nothing moves", async () => {
    const requirements = await requirementOf("/report");
    const payment = await keypairPayment({
      chain: world.chain,
      payer: wallet,
      requirements,
      change: async ([limit, price, , note]) => [
        limit,
        price,
        await transferChecked({
          from: wallet,
          to: requirements.payTo,
          mint: requirements.asset,
          amount: PRICE - 1n,
        }),
        note,
      ],
    });

    const verdict = await expectRefused(payment, requirements, "invalid_exact_svm_payload_amount_mismatch");

    expect(verdict.invalidMessage).toContain(`${PRICE - 1n}`);
  });

  it("Given a payment in another mint than the requirement's, When presented, Then it is refused (mint mismatch) and nothing moves", async () => {
    const requirements = await requirementOf("/report");
    const otherMint = (await generateKeyPairSigner()).address;
    const payment = await keypairPayment({
      chain: world.chain,
      payer: wallet,
      requirements,
      change: async ([limit, price, , note]) => [
        limit,
        price,
        await transferChecked({ from: wallet, to: requirements.payTo, mint: otherMint, amount: PRICE }),
        note,
      ],
    });

    await expectRefused(payment, requirements, "invalid_exact_svm_payload_mint_mismatch");
  });

  it("Given a payment to another account than the requirement's payTo, and a requirement paying another account than the key's, When presented, Then both are refused and nothing moves", async () => {
    const requirements = await requirementOf("/report");
    const elsewhere = await requirementOf("/elsewhere");
    const misdirected = await keypairPayment({
      chain: world.chain,
      payer: wallet,
      requirements,
      change: async ([limit, price, , note]) => [
        limit,
        price,
        await transferChecked({
          from: wallet,
          to: stranger.account.publicKey,
          mint: requirements.asset,
          amount: PRICE,
        }),
        note,
      ],
    });
    const toStranger = await keypairPayment({ chain: world.chain, payer: wallet, requirements: elsewhere });

    await expectRefused(misdirected, requirements, "invalid_exact_svm_payload_recipient_mismatch");
    const refused = await expectRefused(toStranger, elsewhere, "cpay_pay_to_not_this_account");

    expect(refused.invalidMessage).toContain(merchant.account.publicKey);
    expect(paywalled.served.get("/elsewhere")).toBeUndefined();
  });

  it("Given the fee payer inside an instruction (a memo's signer, or the transfer's authority), When presented, Then each is refused and nothing moves", async () => {
    const requirements = await requirementOf("/report");
    const feePayer = address(world.service.context.feePayer.address);
    const inMemo = await keypairPayment({
      chain: world.chain,
      payer: wallet,
      requirements,
      change: ([limit, price, transfer]) => [limit, price, transfer, memo(MEMO, [feePayer])],
    });
    const asAuthority = await keypairPayment({
      chain: world.chain,
      payer: wallet,
      requirements,
      change: async ([limit, price, , note]) => [
        limit,
        price,
        await transferChecked({
          from: feePayer,
          to: requirements.payTo,
          mint: requirements.asset,
          amount: PRICE,
        }),
        note,
      ],
    });

    await expectRefused(inMemo, requirements, "invalid_exact_svm_smart_wallet_fee_payer_not_isolated");
    await expectRefused(
      asAuthority,
      requirements,
      "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds",
    );
  });

  it("Given two transfers in one payment, When presented, Then it is refused (one transfer per payment) and nothing moves", async () => {
    const requirements = await requirementOf("/report");
    const payment = await keypairPayment({
      chain: world.chain,
      payer: wallet,
      requirements,
      change: ([limit, price, transfer, note]) => [limit, price, transfer, transfer, note],
    });

    const verdict = await expectRefused(
      payment,
      requirements,
      "invalid_exact_svm_payload_unknown_fourth_instruction",
    );

    expect(verdict.invalidMessage).toContain("second transfer");
  });

  it("Given a payment signed on a blockhash that has expired, When presented, Then it is refused (the cluster no longer knows its blockhash) and nothing moves", async () => {
    const requirements = await requirementOf("/report");
    const payment = await keypairPayment({ chain: world.chain, payer: wallet, requirements });
    await world.testClock.advanceSlots(200);

    const verdict = await expectRefused(
      payment,
      requirements,
      "invalid_exact_svm_transaction_simulation_failed",
    );

    expect(verdict.invalidMessage).toContain("BlockhashNotFound");
  });

  it("Given compute budgets past the caps, When presented, Then each is refused naming its cap", async () => {
    const requirements = await requirementOf("/report");
    const tooManyUnits = await keypairPayment({
      chain: world.chain,
      payer: wallet,
      requirements,
      change: ([, , transfer, note]) => [...computeBudget(400_001), transfer, note],
    });
    const tooDear = await keypairPayment({
      chain: world.chain,
      payer: wallet,
      requirements,
      change: ([, , transfer, note]) => [...computeBudget(20_000, 5_000_001n), transfer, note],
    });

    await expectRefused(
      tooManyUnits,
      requirements,
      "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction_too_high",
    );
    await expectRefused(
      tooDear,
      requirements,
      "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high",
    );
  });

  it("Given the paid request's PAYMENT-SIGNATURE, When it is presented to a fresh API instance (restarted on the same database), Then it is refused as a duplicate settlement, through the merchant's API too", async () => {
    const header = paymentHeaders[0] as string;
    const payment = JSON.parse(Buffer.from(header, "base64").toString()) as PaymentPayload;
    const before = await ledger();
    fresh = await restartApi(world, ENV);
    const freshFacilitator = new HTTPFacilitatorClient({
      url: `${fresh.url}/v1/x402`,
      createAuthHeaders: async () => {
        const headers = { Authorization: `Bearer ${merchant.key.value}` };
        return { verify: headers, settle: headers, supported: headers };
      },
    });
    const freshPaywalled = await startPaywalledApi({
      facilitatorUrl: `${fresh.url}/v1/x402`,
      facilitatorKey: merchant.key.value,
      network: SOLANA_DEVNET_CAIP2,
      usdgMint: world.chain.usdgMint,
      routes: [{ path: "/report", amount: PRICE, payTo: merchant.account.publicKey, memo: MEMO }],
    });
    try {
      const verdict = await freshFacilitator.verify(payment, payment.accepted);
      const settlement = await freshFacilitator.settle(payment, payment.accepted);
      const replayed = await fetch(`${freshPaywalled.url}/report`, {
        headers: { "PAYMENT-SIGNATURE": header },
      });

      expect(verdict).toMatchObject({ isValid: false, invalidReason: "duplicate_settlement" });
      expect(settlement).toMatchObject({ success: false, errorReason: "duplicate_settlement" });
      expect(replayed.status).toBe(402);
      expect(freshPaywalled.served.get("/report")).toBeUndefined();
      expect(await ledger()).toEqual(before);
    } finally {
      await freshPaywalled.close();
    }
  });
});
