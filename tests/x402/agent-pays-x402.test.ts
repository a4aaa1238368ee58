/**
 * A cpay agent pays x402 resources with the official packages on the other side: a merchant's API
 * behind `@x402/express`'s middleware, the official `@x402/svm` facilitator (smart-wallet
 * verification on, cpay's program its only allowed program, the localnet process as its RPC), and
 * the agent paying through `@cpay/sdk/x402` under `@x402/fetch`'s `wrapFetchWithPayment`. The
 * agent's policy (per transaction 100, HITL 50 USDG) allows the merchant's address only.
 *
 * The cases run in order on one world: the paid fetch first (its PAYMENT-SIGNATURE is replayed
 * last). What must hold: the resource is served once per payment; the merchant gains exactly the
 * price; the agent pays no SOL; the owner's records and webhooks show one `sent` transfer; a payment
 * the policy refuses, or one above the approval threshold, is never signed and moves nothing.
 */
import { idFromBytes } from "@cpay/ledger/ids";
import { POLICY_REFUSALS } from "@cpay/sdk";
import { readAgentAccount } from "@cpay/sdk/agent-confidential";
import type { ChainPort } from "@cpay/sdk/chain";
import {
  AgentX402Error,
  type AgentX402Scheme,
  createAgentX402Client,
  createAgentX402Scheme,
  type SignedX402Payment,
  X402_COMPUTE_UNIT_LIMIT,
} from "@cpay/sdk/x402";
import {
  decompileTransactionMessage,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Instruction,
} from "@solana/kit";
import { x402HTTPClient } from "@x402/core/client";
import { decodePaymentResponseHeader, decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { wrapFetchWithPayment } from "@x402/fetch";
import { MEMO_PROGRAM_ADDRESS } from "@x402/svm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicUsdg } from "../api/support/held-transfer";
import type { SelfCustodyAgent } from "../api/support/self-custody";
import { type ApiWorld, usdg, type WorldAccount } from "../support/api-world";
import { lamportsOf, landedTransaction } from "../support/chain-reads";
import { eventually } from "../support/eventually";
import { startWebhookEndpoint, type WebhookEndpoint } from "../support/webhook-endpoint";
import { type OfficialFacilitator, startOfficialFacilitator } from "./support/official-facilitator";
import { type PaywalledApi, startPaywalledApi } from "./support/paywalled-api";
import { startX402World, type X402World } from "./support/x402-world";

const REPORT_PRICE = 2_500_000n;
const REPORT_MEMO = "invoice 7";
/** The whole payment's compute units (budget, agent_transfer with its CPI, memo); last measured 5,385. */
const PAYMENT_COMPUTE_UNITS_CEILING = 7_000n;

interface Delivery {
  readonly event: string;
  readonly transfer_id: string;
  readonly direction?: string;
}

let x: X402World;
let world: ApiWorld;
let owner: WorldAccount;
let merchant: WorldAccount;
let stranger: WorldAccount;
let agent: SelfCustodyAgent;
let agentChain: ChainPort;
let facilitator: OfficialFacilitator;
let paywalled: PaywalledApi;
let receiver: WebhookEndpoint;
let scheme: AgentX402Scheme;
const delivered: Delivery[] = [];
const signed: SignedX402Payment[] = [];
/** Every PAYMENT-SIGNATURE header the agent sent. */
const paymentHeaders: string[] = [];

/** `fetch` that records the payment headers the agent sends. */
const recordingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const header = request.headers.get("PAYMENT-SIGNATURE");
  if (header !== null) paymentHeaders.push(header);
  return fetch(request);
};

const payingFetch = () => wrapFetchWithPayment(recordingFetch, createAgentX402Client(scheme, agentChain));

/** The 402 a route answers an unpaid request with. */
async function paymentRequiredOf(path: string): Promise<PaymentRequired> {
  const response = await fetch(`${paywalled.url}${path}`);
  expect(response.status).toBe(402);
  const http = new x402HTTPClient(createAgentX402Client(scheme, agentChain));
  return http.getPaymentRequiredResponse((name) => response.headers.get(name), await response.json());
}

/** What `promise` rejected with, as the payer's error; fails the test otherwise. */
async function payerRefusal(promise: Promise<unknown>): Promise<AgentX402Error> {
  const caught = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(caught instanceof AgentX402Error))
    throw new Error(`expected the payer to refuse, got ${String(caught)}`);
  return caught;
}

/** Balances a refused payment must leave as they were. */
async function balances() {
  const [agentUsdg, merchantUsdg, strangerUsdg, feePayerLamports] = await Promise.all([
    publicUsdg(world, agent.created.public_key),
    publicUsdg(world, merchant.account.publicKey),
    publicUsdg(world, stranger.account.publicKey),
    lamportsOf(world.chain, facilitator.feePayer.address),
  ]);
  return { agentUsdg, merchantUsdg, strangerUsdg, feePayerLamports };
}

beforeAll(async () => {
  receiver = await startWebhookEndpoint({
    onDelivery: ({ body }) => {
      delivered.push(JSON.parse(body) as Delivery);
    },
  });
  x = await startX402World({
    env: { WEBHOOKS_ALLOW_LOCAL: "1" },
    allowMerchantOnly: true,
    routes: ({ merchant, stranger }) => [
      { path: "/report", amount: REPORT_PRICE, payTo: merchant.account.publicKey, memo: REPORT_MEMO },
      { path: "/premium", amount: usdg(101), payTo: merchant.account.publicKey },
      { path: "/elsewhere", amount: usdg(1), payTo: stranger.account.publicKey },
      { path: "/bulk", amount: usdg(60), payTo: merchant.account.publicKey },
    ],
  });
  ({ world, owner, merchant, stranger, agent, facilitator, paywalled } = x);
  await owner.client.call("createWebhook", {
    body: { url: `${receiver.url}/owner`, events: ["transfer.initiated", "transfer.confirmed"] },
  });
  agentChain = await world.openChain();
  scheme = createAgentX402Scheme({
    chain: agentChain,
    agentSigner: agent.signer,
    agent: agent.pda,
    onSigned: (payment) => signed.push(payment),
  });
}, 300_000);

afterAll(async () => {
  await agentChain?.close();
  await x?.close();
  await receiver?.close();
});

describe("a cpay agent paying an x402 resource", () => {
  it("Given the merchant's API behind the official middleware and facilitator, When the agent fetches it with wrapFetchWithPayment, Then it is served after one payment: the merchant gains exactly the price, the agent pays no SOL, and the owner sees one sent transfer", async () => {
    const before = await balances();
    const agentLamports = async () => [
      await lamportsOf(world.chain, agent.signer.address),
      await lamportsOf(world.chain, agent.pda),
    ];
    const lamportsBefore = await agentLamports();

    const response = await payingFetch()(`${paywalled.url}/report`);

    // Then the resource is served, once
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ report: "paid content of /report" });
    expect(paywalled.served.get("/report")).toBe(1);
    const settlement = decodePaymentResponseHeader(response.headers.get("PAYMENT-RESPONSE") as string);
    expect(settlement).toMatchObject({ success: true, payer: agent.pda });
    // ... the payment is the agent's PDA spending through the program, the fee payer in no instruction
    const landed = await landedTransaction(world.chain, settlement.transaction);
    expect(landed.err).toBeNull();
    const message = decompileTransactionMessage(
      getCompiledTransactionMessageDecoder().decode(getTransactionDecoder().decode(landed.wire).messageBytes),
    );
    const instructions: readonly Instruction[] = message.instructions;
    expect(message.feePayer.address).toBe(facilitator.feePayer.address);
    expect(instructions.map((instruction) => instruction.programAddress)).toEqual([
      "ComputeBudget111111111111111111111111111111",
      "ComputeBudget111111111111111111111111111111",
      world.chain.programId,
      MEMO_PROGRAM_ADDRESS,
    ]);
    for (const instruction of instructions) {
      expect((instruction.accounts ?? []).map((account) => account.address)).not.toContain(
        facilitator.feePayer.address,
      );
    }
    expect(new TextDecoder().decode(instructions[3]?.data)).toBe(REPORT_MEMO);
    // ... well within the compute budget it asked for
    expect(landed.computeUnitsConsumed).toBeLessThanOrEqual(PAYMENT_COMPUTE_UNITS_CEILING);
    expect(PAYMENT_COMPUTE_UNITS_CEILING).toBeLessThan(BigInt(X402_COMPUTE_UNIT_LIMIT));
    // ... the merchant gains exactly the price, the agent loses it and pays no SOL; the facilitator pays the fee
    const after = await balances();
    expect(after.merchantUsdg - before.merchantUsdg).toBe(REPORT_PRICE);
    expect(before.agentUsdg - after.agentUsdg).toBe(REPORT_PRICE);
    expect(await agentLamports()).toEqual(lamportsBefore);
    expect(after.feePayerLamports).toBeLessThan(before.feePayerLamports);
    // ... and the owner's records and webhooks show it once, as sent
    expect(signed).toHaveLength(1);
    const transferId = idFromBytes("tr", (signed[0] as SignedX402Payment).transferId);
    const agentApi = world.clientFor(agent.key.value);
    const listed = await eventually(
      () => agentApi.call("listTransfers", { query: { direction: "sent" } }),
      (list) => list.transfers.some((transfer) => transfer.status === "confirmed"),
    );
    expect(listed.transfers).toHaveLength(1);
    expect(listed.transfers[0]).toMatchObject({
      transfer_id: transferId,
      direction: "sent",
      status: "confirmed",
      tx_signature: settlement.transaction,
    });
    await eventually(
      () => delivered.filter((delivery) => delivery.transfer_id === transferId),
      (deliveries) => deliveries.some((delivery) => delivery.event === "transfer.confirmed"),
    );
    const toOwner = delivered.filter((delivery) => delivery.transfer_id === transferId);
    expect(toOwner.map((delivery) => [delivery.event, delivery.direction]).sort()).toEqual([
      ["transfer.confirmed", "sent"],
      ["transfer.initiated", "sent"],
    ]);
  });

  it("Given a price over the agent's per-transaction limit, When the agent is asked to pay it, Then the payer refuses naming the rule, signs nothing and nothing moves", async () => {
    const before = await balances();
    const required = await paymentRequiredOf("/premium");

    const refused = await payerRefusal(
      createAgentX402Client(scheme, agentChain).createPaymentPayload(required),
    );
    const wrapped = await payingFetch()(`${paywalled.url}/premium`).then(
      () => null,
      (error: unknown) => error,
    );

    expect(refused).toMatchObject({
      code: "policy_violation",
      rule: "PerTransactionLimitExceeded",
      param: "per_transaction_limit_usdg",
    });
    expect(String(wrapped)).toContain(POLICY_REFUSALS.PerTransactionLimitExceeded.message);
    expect(signed).toHaveLength(1);
    expect(paywalled.served.get("/premium")).toBeUndefined();
    expect(await balances()).toEqual(before);
  });

  it("Given a merchant the agent's allowed recipients do not name, When the agent is asked to pay it, Then the payer refuses naming the rule and nothing moves", async () => {
    const before = await balances();

    const refused = await payerRefusal(
      createAgentX402Client(scheme, agentChain).createPaymentPayload(await paymentRequiredOf("/elsewhere")),
    );

    expect(refused).toMatchObject({
      code: "policy_violation",
      rule: "RecipientNotAllowed",
      param: "allowed_recipients",
    });
    expect(signed).toHaveLength(1);
    expect(paywalled.served.get("/elsewhere")).toBeUndefined();
    expect(await balances()).toEqual(before);
  });

  it("Given a price above the agent's approval threshold, When the agent is asked to pay it, Then it is told the owner must approve: nothing is signed, held or paid", async () => {
    const before = await balances();
    const { nextHoldNonce } = await readAgentAccount(world.chain, agent.pda);

    const refused = await payerRefusal(
      createAgentX402Client(scheme, agentChain).createPaymentPayload(await paymentRequiredOf("/bulk")),
    );

    expect(refused).toMatchObject({ code: "approval_required", param: "hitl_threshold_usdg" });
    expect(refused.message).toMatch(/owner must approve/);
    expect(signed).toHaveLength(1);
    expect((await readAgentAccount(world.chain, agent.pda)).nextHoldNonce).toBe(nextHoldNonce);
    expect(paywalled.served.get("/bulk")).toBeUndefined();
    expect(await balances()).toEqual(before);
  });

  it("Given the paid request's PAYMENT-SIGNATURE, When it is replayed to a fresh facilitator instance and to the first one, Then both refuse it (already processed) and the resource is not served again", async () => {
    const header = paymentHeaders[0] as string;
    const before = await balances();
    const fresh = await startOfficialFacilitator({
      chain: world.chain,
      rpcUrl: x.rpcUrl,
      network: scheme.network,
      feePayer: facilitator.feePayer,
    });
    const freshApi = await startPaywalledApi({
      facilitatorUrl: fresh.url,
      network: scheme.network,
      usdgMint: world.chain.usdgMint,
      routes: [
        { path: "/report", amount: REPORT_PRICE, payTo: merchant.account.publicKey, memo: REPORT_MEMO },
      ],
    });
    try {
      const payload = decodePaymentSignatureHeader(header);
      const verdict = await fresh.facilitator.verify(payload, payload.accepted);

      const replayedFresh = await fetch(`${freshApi.url}/report`, {
        headers: { "PAYMENT-SIGNATURE": header },
      });
      const replayedFirst = await fetch(`${paywalled.url}/report`, {
        headers: { "PAYMENT-SIGNATURE": header },
      });

      expect(verdict.isValid).toBe(false);
      expect(`${verdict.invalidReason}`).toContain("AlreadyProcessed");
      expect(replayedFresh.status).toBe(402);
      expect(replayedFirst.status).toBe(402);
      expect(freshApi.served.get("/report")).toBeUndefined();
      expect(paywalled.served.get("/report")).toBe(1);
      expect(await balances()).toEqual(before);
    } finally {
      await freshApi.close();
      await fresh.close();
    }
  });
});
