/**
 * The local MCP server's `fetch_paid` against a merchant's API behind `@x402/express` and the
 * official `@x402/svm` facilitator (the x402 world: the localnet process, the service and its
 * indexer). The server runs in process over the SDK's in-memory transport, on the agent's connected
 * client (`connectAgent` with its six settings), with `CPAY_MCP_CONFIRM_ABOVE` at 2 USDG and a
 * client that answers elicitation as the test's human says. Each case checks what moved on-chain.
 */
import { createLocalServer } from "@cpay/mcp/local-server";
import { type ConnectedAgent, connectAgent } from "@cpay/sdk/agent-client";
import {
  deriveAgentConfidentialSecret,
  exportConfidentialSecret,
  importConfidentialSecret,
} from "@cpay/sdk/confidential";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicUsdg } from "../api/support/held-transfer";
import { answerOf, call, textOf } from "../mcp/support/mcp-results";
import { usdg } from "../support/api-world";
import { eventually } from "../support/eventually";
import { startX402World, type X402World } from "./support/x402-world";

const CONFIRM_ABOVE = usdg(2);

interface FetchAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly body_truncated: boolean;
  readonly payment: {
    readonly signature: string;
    readonly amount: string;
    readonly asset: string;
    readonly pay_to: string;
    readonly transfer_id: string;
  } | null;
}

let x: X402World;
let agent: ConnectedAgent;
let server: McpServer;
let client: Client;
/** What the test's human answers the next confirmation with, and what it was asked. */
let humanAnswer: ElicitResult = { action: "decline" };
const asked: string[] = [];

const merchantUsdg = () => publicUsdg(x.world, x.merchant.account.publicKey);
const agentUsdg = () => publicUsdg(x.world, x.agent.created.public_key);

/** fetch_paid of `path` on the merchant's API. */
const fetchPaid = (path: string) =>
  client.callTool({ name: "fetch_paid", arguments: { url: `${x.paywalled.url}${path}` } });

beforeAll(async () => {
  x = await startX402World({
    routes: ({ merchant }) => [
      { path: "/report", amount: 1_500_000n, payTo: merchant.account.publicKey },
      { path: "/pricey", amount: usdg(3), payTo: merchant.account.publicKey },
      { path: "/premium", amount: usdg(101), payTo: merchant.account.publicKey },
      { path: "/bulk", amount: usdg(60), payTo: merchant.account.publicKey },
    ],
  });
  agent = await connectAgent({
    apiUrl: x.world.url,
    apiKey: x.agent.key.value,
    signerSecret: x.agent.created.signer_secret as string,
    confidentialSecret: exportConfidentialSecret(
      deriveAgentConfidentialSecret(importConfidentialSecret(x.owner.confidentialSecret), "owner/buyer"),
    ),
    rpcUrl: x.rpcUrl,
    wsUrl: x.world.localnet?.wsUrl() as string,
  });
  server = createLocalServer(agent, { confirmAbove: CONFIRM_ABOVE });
  client = new Client(
    { name: "fetch-paid-suite", version: "1" },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return humanAnswer;
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
}, 300_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
  await agent?.close();
  await x?.close();
});

describe("fetch_paid on the local MCP server", () => {
  it("Given the local server, When its tools are listed, Then fetch_paid is there, destructive and not idempotent", async () => {
    const { tools } = await client.listTools();

    expect(tools.find((tool) => tool.name === "fetch_paid")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
  });

  it("Given a URL that asks no payment, When fetched, Then its status and body are answered and nothing is paid", async () => {
    const before = await agentUsdg();

    const answer = answerOf<FetchAnswer>(await fetchPaid("/nothing-here"));

    expect(answer).toMatchObject({ status: 404, payment: null, body_truncated: false });
    expect(await agentUsdg()).toBe(before);
  });

  it("Given a resource priced below the confirmation threshold, When fetched, Then it is paid once without asking, served, and the transfer is the owner's record", async () => {
    const [merchantBefore, askedBefore] = [await merchantUsdg(), asked.length];

    const answer = answerOf<FetchAnswer>(await fetchPaid("/report"));

    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ report: "paid content of /report" });
    expect(answer.headers["content-type"]).toMatch(/application\/json/);
    expect(answer.payment).toMatchObject({
      amount: "1.5",
      asset: "USDG",
      pay_to: x.merchant.account.publicKey,
    });
    expect(asked).toHaveLength(askedBefore);
    expect((await merchantUsdg()) - merchantBefore).toBe(1_500_000n);
    expect(x.paywalled.served.get("/report")).toBe(1);
    const transfer = await eventually(
      () =>
        call<{ transfer: { status: string; tx_signature: string } }>(client, "get_transfer", {
          transfer_id: answer.payment?.transfer_id,
        }),
      (read) => read.transfer.status === "confirmed",
    );
    expect(transfer.transfer.tx_signature).toBe(answer.payment?.signature);
  });

  it("Given a price above CPAY_MCP_CONFIRM_ABOVE, When the human declines and then accepts, Then the first call pays nothing and the second pays once", async () => {
    const merchantBefore = await merchantUsdg();
    humanAnswer = { action: "accept", content: { approve: false } };

    const declined = await fetchPaid("/pricey");

    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toContain("confirmation_declined");
    expect(asked.at(-1)).toContain("3 USDG");
    expect(await merchantUsdg()).toBe(merchantBefore);
    expect(x.paywalled.served.get("/pricey")).toBeUndefined();

    humanAnswer = { action: "accept", content: { approve: true } };
    const accepted = answerOf<FetchAnswer>(await fetchPaid("/pricey"));

    expect(accepted.status).toBe(200);
    expect((await merchantUsdg()) - merchantBefore).toBe(usdg(3));
    expect(x.paywalled.served.get("/pricey")).toBe(1);
  });

  it("Given prices over the per-transaction limit and above the approval threshold, When fetched, Then each is a tool error naming the rule, and nothing is paid", async () => {
    const [agentBefore, askedBefore] = [await agentUsdg(), asked.length];

    const overLimit = await fetchPaid("/premium");
    const aboveThreshold = await fetchPaid("/bulk");

    expect(overLimit.isError).toBe(true);
    expect(overLimit.structuredContent).toMatchObject({
      error: { code: "policy_violation", param: "per_transaction_limit_usdg" },
    });
    expect(aboveThreshold.isError).toBe(true);
    expect(aboveThreshold.structuredContent).toMatchObject({
      error: { code: "approval_required", param: "hitl_threshold_usdg" },
    });
    expect(textOf(aboveThreshold)).toMatch(/tell the agent.s owner.*raise hitl_threshold_usdg/);
    expect(asked).toHaveLength(askedBefore);
    expect(await agentUsdg()).toBe(agentBefore);
    expect(x.paywalled.served.get("/premium")).toBeUndefined();
    expect(x.paywalled.served.get("/bulk")).toBeUndefined();
  });
});
