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
import type { TWebhookEventOf } from "@cpay/sdk/api";
import { address, generateKeyPairSigner, type Instruction, type KeyPairSigner } from "@solana/kit";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { wrapFetchWithPayment } from "@x402/fetch";
import { SOLANA_DEVNET_CAIP2 } from "@x402/svm";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicUsdg } from "../api/support/held-transfer";
import { type ApiWorld, startApiWorld, usdg, type WorldAccount } from "../support/api-world";
import { lamportsOf, landedTransaction } from "../support/chain-reads";
import { eventually } from "../support/eventually";
import { startWebhookEndpoint, type WebhookEndpoint } from "../support/webhook-endpoint";
import { cpayFacilitator } from "./support/cpay-facilitator";
import { type FreshApi, restartApi } from "./support/fresh-api";
import {
  computeBudget,
  keypairPayment,
  memo,
  type StandardPayment,
  transferChecked,
} from "./support/keypair-payment";
import { paymentOf, recordingPayments } from "./support/payment-headers";
import { type PaywalledApi, startPaywalledApi } from "./support/paywalled-api";

const PRICE = 1_250_000n;
/** The world's settings, which the fresh API instance of the last case is started with too. */
const ENV = {
  SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
  WEBHOOKS_ALLOW_LOCAL: "1",
  X402_TEST_NETWORK_ALIASES: SOLANA_DEVNET_CAIP2,
};
const MEMO = "order 42";

/** A transfer event as the merchant's (or owner's) webhook receives it. */
type Delivery = TWebhookEventOf<"transfer.confirmed">;

let world: ApiWorld;
let merchant: WorldAccount;
let stranger: WorldAccount;
let wallet: KeyPairSigner;
let paywalled: PaywalledApi;
let receiver: WebhookEndpoint;
let facilitator: HTTPFacilitatorClient;
let fresh: FreshApi | undefined;
const delivered: Delivery[] = [];
/** Every PAYMENT-SIGNATURE header the payer sent. */
const payments = recordingPayments();

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
    db.select().from(reserveUsage).where(eq(reserveUsage.accountId, merchant.account.id)),
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

/** A bad payment: what is wrong, how it is built from the standard one, and the refusal. */
interface BadPayment {
  readonly given: string;
  /** The route whose requirement it pays (default /report). */
  readonly path?: string;
  readonly change?: (
    standard: StandardPayment,
    pay: (overrides: Partial<Parameters<typeof transferChecked>[0]>) => Promise<Instruction>,
  ) => Promise<Instruction[]> | Instruction[];
  /** Runs once the payment is signed, before it is presented. */
  readonly afterSigning?: () => Promise<unknown>;
  readonly reason: string;
  /** What the refusal's message names (read once the world exists). */
  readonly says: readonly (() => string)[];
}

const BAD_PAYMENTS: readonly BadPayment[] = [
  {
    given: "a payment of less than the price",
    change: async ([limit, price, , note], pay) => [limit, price, await pay({ amount: PRICE - 1n }), note],
    reason: "invalid_exact_svm_payload_amount_mismatch",
    says: [() => `${PRICE - 1n}`],
  },
  {
    given: "a payment in another mint than the requirement's",
    change: async ([limit, price, , note], pay) => [
      limit,
      price,
      await pay({ mint: "So11111111111111111111111111111111111111112" }),
      note,
    ],
    reason: "invalid_exact_svm_payload_mint_mismatch",
    says: [() => "So11111111111111111111111111111111111111112"],
  },
  {
    given: "a payment to another account than the requirement's payTo",
    change: async ([limit, price, , note], pay) => [
      limit,
      price,
      await pay({ to: stranger.account.publicKey }),
      note,
    ],
    reason: "invalid_exact_svm_payload_recipient_mismatch",
    says: [() => merchant.account.publicKey],
  },
  {
    given: "a requirement paying another account than the key's",
    path: "/elsewhere",
    reason: "cpay_pay_to_not_this_account",
    says: [() => merchant.account.publicKey, () => stranger.account.publicKey],
  },
  {
    given: "the fee payer named in an instruction (a memo's signer)",
    change: ([limit, price, transfer]) => [
      limit,
      price,
      transfer,
      memo(MEMO, [address(world.service.context.feePayer.address)]),
    ],
    reason: "invalid_exact_svm_smart_wallet_fee_payer_not_isolated",
    says: [() => world.service.context.feePayer.address],
  },
  {
    given: "the fee payer as the transfer's authority",
    change: async ([limit, price, , note], pay) => [
      limit,
      price,
      await pay({ from: address(world.service.context.feePayer.address) }),
      note,
    ],
    reason: "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds",
    says: [() => "fee payer"],
  },
  {
    given: "two transfers in one payment",
    change: ([limit, price, transfer, note]) => [limit, price, transfer, transfer, note],
    reason: "invalid_exact_svm_payload_unknown_fourth_instruction",
    says: [() => "second transfer"],
  },
  {
    given: "a payment signed on a blockhash that has since expired",
    afterSigning: () => world.testClock.advanceSlots(200),
    reason: "invalid_exact_svm_transaction_simulation_failed",
    says: [() => "BlockhashNotFound"],
  },
  {
    given: "a compute limit past the cap",
    change: ([, , transfer, note]) => [...computeBudget(400_001), transfer, note],
    reason: "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction_too_high",
    says: [() => "400000"],
  },
  {
    given: "a priority fee past the cap",
    change: ([, , transfer, note]) => [...computeBudget(20_000, 5_000_001n), transfer, note],
    reason: "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high",
    says: [() => "5000000"],
  },
];

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
  facilitator = cpayFacilitator(world.url, merchant.key.value);
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

    const response = await wrapFetchWithPayment(payments.fetch, walletClient())(`${paywalled.url}/report`);

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
    const header = payments.headers[0] as string;
    const payment = paymentOf(header);
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

  it.each(BAD_PAYMENTS)(
    "Given $given, When presented to verify and settle, Then both refuse it ($reason) and nothing moves or is charged",
    async (bad) => {
      const requirements = await requirementOf(bad.path ?? "/report");
      const pay = (overrides: Partial<Parameters<typeof transferChecked>[0]>) =>
        transferChecked({
          from: wallet,
          to: requirements.payTo,
          mint: requirements.asset,
          amount: PRICE,
          ...overrides,
        });
      const payment = await keypairPayment({
        chain: world.chain,
        payer: wallet,
        requirements,
        ...(bad.change === undefined ? {} : { change: (standard) => bad.change?.(standard, pay) ?? [] }),
      });
      await bad.afterSigning?.();

      const verdict = await expectRefused(payment, requirements, bad.reason);

      for (const words of bad.says) expect(verdict.invalidMessage).toContain(words());
      expect(paywalled.served.get(bad.path ?? "/report")).toBe(bad.path === undefined ? 1 : undefined);
    },
  );

  it("Given the paid request's PAYMENT-SIGNATURE, When it is presented to a fresh API instance (restarted on the same database), Then it is refused as a duplicate settlement, through the merchant's API too", async () => {
    const header = payments.headers[0] as string;
    const payment = paymentOf(header);
    const before = await ledger();
    fresh = await restartApi(world, ENV);
    const freshFacilitator = cpayFacilitator(fresh.url, merchant.key.value);
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
