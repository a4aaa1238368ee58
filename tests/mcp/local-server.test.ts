/**
 * The local MCP server as a self-custody agent's host runs it: `npm run --silent mcp` spawned over
 * stdio by the SDK's own `Client`, with only the agent's six settings and `CPAY_MCP_CONFIRM_ABOVE`, against the
 * localnet process (over JSON-RPC, as the agent's process reads it), the API and the indexer. It
 * signs through the agent's PDA, submits through the relay, and decrypts the agent's own figures.
 * The cases run in order on one world: public payments first, since once the agent has spent
 * confidentially the program refuses public spends for the rest of the UTC day. A second host runs
 * a second agent of the same owner, with a client that offers no elicitation, and reaches the
 * service through a recording proxy: its memo is read back by the recipient, and on the wire it
 * is never plaintext.
 */

import { resolve } from "node:path";
import { LOCAL_SERVER_TOOLS } from "@cpay/mcp/tools";
import { type AgentSettings, agentSettingsEnv, MEMO_REFUSALS } from "@cpay/sdk/agent-client";
import type { TTransfer, TTransferDetail } from "@cpay/sdk/api";
import {
  deriveAgentConfidentialSecret,
  exportConfidentialSecret,
  importConfidentialSecret,
  readTransferMemo,
} from "@cpay/sdk/confidential";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  type ClientCapabilities,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAgent, TEST_POLICY } from "../api/support/agents";
import { confidentialUsdg, eventually, keysOf, publicUsdg } from "../api/support/held-transfer";
import { createSelfCustodyAgent, type SelfCustodyAgent } from "../api/support/self-custody";
import { type ApiWorld, startApiWorld, usdg, type WorldAccount } from "../support/api-world";
import { landedTransaction } from "../support/chain-reads";
import { answerOf, call, textOf } from "./support/mcp-results";
import { type RecordingProxy, startRecordingProxy } from "./support/recording-proxy";

const REPO = resolve(import.meta.dirname, "../..");
/** Above this the human confirms first (the local threshold); the on-chain HITL threshold is 50. */
const CONFIRM_ABOVE = "10";

let world: ApiWorld;
let owner: WorldAccount;
let merchant: WorldAccount;
let agent: SelfCustodyAgent;
let client: Client;
let transport: StdioClientTransport;
/** What the test's human answers the next confirmation with, and what it was asked. */
let humanAnswer: ElicitResult = { action: "decline" };
const asked: string[] = [];

interface PayAnswer {
  readonly transfer: TTransfer | TTransferDetail;
  readonly replayed?: true;
}

const agentPublic = () => publicUsdg(world, agent.created.public_key);
const merchantPublic = () => publicUsdg(world, merchant.account.publicKey);

async function transferOf(transferId: string): Promise<TTransferDetail> {
  return (await call<{ transfer: TTransferDetail }>(client, "get_transfer", { transfer_id: transferId }))
    .transfer;
}

const confirmed = (transferId: string) =>
  eventually(
    () => transferOf(transferId),
    (transfer) => transfer.status !== "pending",
    60_000,
    200,
  );

/** The agent's settings, as its owner hands them to its host. */
function settingsOf(agentOf: SelfCustodyAgent, name: string, apiUrl: string): AgentSettings {
  return {
    apiUrl,
    apiKey: agentOf.key.value,
    signerSecret: agentOf.created.signer_secret as string,
    confidentialSecret: exportConfidentialSecret(
      deriveAgentConfidentialSecret(importConfidentialSecret(owner.confidentialSecret), `owner/${name}`),
    ),
    rpcUrl: world.localnet?.rpcUrl() as string,
    wsUrl: world.localnet?.wsUrl() as string,
  };
}

/** `npm run --silent mcp` with `settings`, as a host starts it, and a client with `capabilities` on it. */
async function startHost(settings: AgentSettings, capabilities: ClientCapabilities) {
  const stdio = new StdioClientTransport({
    command: "npm",
    args: ["run", "--silent", "mcp"],
    cwd: REPO,
    env: { ...getDefaultEnvironment(), ...agentSettingsEnv(settings), CPAY_MCP_CONFIRM_ABOVE: CONFIRM_ABOVE },
    stderr: "pipe",
  });
  const stderr: string[] = [];
  stdio.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
  const host = new Client({ name: "local-server-suite", version: "1" }, { capabilities });
  return { host, stdio, stderr };
}

beforeAll(async () => {
  world = await startApiWorld({ chain: "rpc" });
  owner = await world.account("owner", { type: "business" });
  merchant = await world.account("merchant", { type: "business" });
  agent = await createSelfCustodyAgent(world, owner, "shopper");
  await world.fund(await world.accountRow(agent.created.account_id), {
    public: usdg(200),
    confidential: usdg(20),
  });
  const started = await startHost(settingsOf(agent, "shopper", world.url), { elicitation: { form: {} } });
  client = started.host;
  transport = started.stdio;
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return humanAnswer;
  });
  await client.connect(transport);
}, 300_000);

afterAll(async () => {
  await client?.close();
  await world?.close();
});

describe("the local MCP server of a self-custody agent", () => {
  it("Given the server spawned over stdio, When its tools are listed, Then they are the local set and every input schema is valid JSON Schema", async () => {
    const { tools } = await client.listTools();

    expect(tools.map((tool) => tool.name).sort()).toEqual(LOCAL_SERVER_TOOLS.map((tool) => tool.name).sort());
    const validator = new AjvJsonSchemaValidator();
    for (const tool of tools) expect(() => validator.getValidator(tool.inputSchema), tool.name).not.toThrow();
  });

  it("Given an amount over the per-transaction limit, When previewed and then paid, Then the preview and the tool error both name the rule, and nothing moves", async () => {
    const overLimit = String(TEST_POLICY.per_transaction_limit_usdg + 1);
    const preview = await call<{ decision: string; rule: string }>(client, "preview_payment", {
      to: "@merchant",
      amount: overLimit,
      confidential: false,
    });
    humanAnswer = { action: "accept", content: { approve: true } };
    const paid = await client.callTool({
      name: "pay",
      arguments: { to: "@merchant", amount: overLimit, confidential: false, idempotency_key: "over-limit" },
    });

    expect(preview).toMatchObject({ decision: "refused", rule: "per_transaction_limit_usdg" });
    expect(paid.isError).toBe(true);
    expect(textOf(paid)).toMatch(/policy_violation \(rule: per_transaction_limit_usdg\)/);
    expect(textOf(paid)).toMatch(/raise per_transaction_limit_usdg/);
    const retried = await client.callTool({
      name: "pay",
      arguments: { to: "@merchant", amount: overLimit, confidential: false, idempotency_key: "over-limit" },
    });
    expect(retried.isError).toBe(true);
    expect(textOf(retried)).toMatch(/transfer_failed.*NEW idempotency_key/);
    expect(await merchantPublic()).toBe(0n);
    expect(await agentPublic()).toBe(usdg(200));
  }, 120_000);

  it("Given bad input of each kind, When paid, Then each is a clear tool error and nothing moves", async () => {
    const attempts: [Record<string, unknown>, RegExp][] = [
      [{ to: "@merchant", amount: 5, idempotency_key: "bad-1" }, /expected string/],
      [{ to: "@merchant", amount: "-5", idempotency_key: "bad-2" }, /decimal string/],
      [{ to: "@merchant", amount: "1.0000001", idempotency_key: "bad-3" }, /at most 6 decimals/],
      [{ to: "@nobody-here", amount: "1", idempotency_key: "bad-4" }, /recipient_not_found.*@nobody-here/],
      [{ to: "@merchant", amount: "0", idempotency_key: "bad-5" }, /greater than zero/],
      [{ to: "@merchant", amount: "1", asset: "BTC", idempotency_key: "bad-6" }, /expected "USDG" at asset/],
    ];
    for (const [args, why] of attempts) {
      const result = await client.callTool({ name: "pay", arguments: args });

      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result), JSON.stringify(args)).toMatch(why);
    }
    const unknown = await client.callTool({ name: "pay_twice", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/pay_twice not found/);
    expect(await merchantPublic()).toBe(0n);
    expect(await agentPublic()).toBe(usdg(200));
  }, 120_000);

  it("Given an amount above the local confirmation threshold, When the human declines, Then nothing is paid and no transfer exists", async () => {
    humanAnswer = { action: "decline" };
    asked.length = 0;
    const before = await call<{ total: number }>(client, "list_transfers", {});
    const result = await client.callTool({
      name: "pay",
      arguments: { to: "@merchant", amount: "12", confidential: false, idempotency_key: "declined-1" },
    });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/confirmation_declined/);
    expect(asked).toEqual([expect.stringMatching(/pay 12 USDG to @merchant \(public\)/)]);
    expect(await merchantPublic()).toBe(0n);
    const after = await call<{ total: number }>(client, "list_transfers", {});
    expect(after.total).toBe(before.total);
  }, 120_000);

  it("Given a public payment, When paid and then paid again with the same idempotency key, Then it is confirmed once: the merchant gets it once and the balance tool agrees with the chain", async () => {
    const args = { to: "@merchant", amount: "1.5", confidential: false, idempotency_key: "public-1" };
    const first = await call<PayAnswer>(client, "pay", args);
    const again = await call<PayAnswer>(client, "pay", args);
    const settled = await confirmed(first.transfer.transfer_id);

    expect(first.transfer).toMatchObject({ to: "@merchant", confidential: false, approval: null });
    expect(again).toMatchObject({ replayed: true, transfer: { transfer_id: first.transfer.transfer_id } });
    expect(settled.status).toBe("confirmed");
    expect(await merchantPublic()).toBe(1_500_000n);
    const balance = await call<{ public: string }>(client, "balance");
    expect(balance.public).toBe("198.5");
    expect(await agentPublic()).toBe(198_500_000n);
  }, 120_000);

  it("Given a payment above the on-chain approval threshold, When the human confirms it locally, Then it is held, and once the owner approves it through /v1 it is confirmed", async () => {
    humanAnswer = { action: "accept", content: { approve: true } };
    const held = await call<PayAnswer>(client, "pay", {
      to: "@merchant",
      amount: "60",
      confidential: false,
      idempotency_key: "held-1",
    });
    const approval = held.transfer.approval;
    expect(approval).not.toBeNull();
    expect(await merchantPublic()).toBe(1_500_000n);

    await owner.client.call("approveTransaction", {
      params: { transaction_id: approval?.transaction_id as string },
    });
    const settled = await confirmed(held.transfer.transfer_id);

    expect(settled.status).toBe("confirmed");
    expect(await merchantPublic()).toBe(61_500_000n);
  }, 180_000);

  it("Given a confidential payment, When paid, Then it is confirmed, the merchant decrypts it with its own keys, and the agent's decrypted balance and budget drop by it", async () => {
    const before = await call<{ confidential_available: string }>(client, "balance");
    const paid = await call<PayAnswer>(client, "pay", {
      to: "@merchant",
      amount: "2.25",
      idempotency_key: "confidential-1",
    });
    const settled = await confirmed(paid.transfer.transfer_id);

    expect(settled).toMatchObject({ status: "confirmed", confidential: true });
    expect(before.confidential_available).toBe("20");
    const balance = await call<{ confidential_available: string }>(client, "balance");
    expect(balance.confidential_available).toBe("17.75");
    const merchantSide = await confidentialUsdg(world, merchant.account.publicKey, keysOf(merchant));
    expect(merchantSide.available + merchantSide.pending).toBe(2_250_000n);
    const budget = await call<{ daily_remaining: string }>(client, "remaining_budget");
    // Today: 1.5 + 60 in public and 2.25 confidential of the 250 daily limit.
    expect(budget.daily_remaining).toBe("186.25");
  }, 240_000);
});

describe("a second host: a client that cannot be asked, and a memo", () => {
  const MEMO = "canary memo: local order 7731 for the blue tulips";
  let courier: SelfCustodyAgent;
  let florist: WorldAccount;
  let proxy: RecordingProxy;
  let second: Awaited<ReturnType<typeof startHost>>;

  const courierPublic = () => publicUsdg(world, courier.created.public_key);
  const floristPublic = () => publicUsdg(world, florist.account.publicKey);

  beforeAll(async () => {
    courier = await createSelfCustodyAgent(world, owner, "courier");
    await world.fund(await world.accountRow(courier.created.account_id), { public: usdg(20) });
    florist = await world.account("florist", { type: "business" });
    proxy = await startRecordingProxy(world.url);
    // No capabilities: this client cannot be asked anything.
    second = await startHost(settingsOf(courier, "courier", proxy.url), {});
    await second.host.connect(second.stdio);
  }, 300_000);

  afterAll(async () => {
    await second?.host.close();
    await proxy?.close();
  });

  it("Given a client without elicitation and a server with CPAY_MCP_CONFIRM_ABOVE, When it pays above it, Then the tool error says the human cannot be asked, and nothing is paid", async () => {
    const before = await call<{ total: number }>(second.host, "list_transfers", {});
    const result = await second.host.callTool({
      name: "pay",
      arguments: { to: "@florist", amount: "12", confidential: false, idempotency_key: "unasked-1" },
    });

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: "confirmation_unavailable" } });
    expect(textOf(result)).toMatch(
      /this MCP client cannot ask them \(it offers no form elicitation\); nothing was paid/,
    );
    expect(await floristPublic()).toBe(0n);
    expect(await courierPublic()).toBe(usdg(20));
    expect((await call<{ total: number }>(second.host, "list_transfers", {})).total).toBe(before.total);
  }, 120_000);

  it("Given a public payment with a memo, When paid, Then it is confirmed, the recipient decrypts the memo from its transaction, and the memo is plaintext in no message to or from the service, no answer and no log line", async () => {
    const paid = await second.host.callTool({
      name: "pay",
      arguments: {
        to: "@florist",
        amount: "0.5",
        confidential: false,
        memo: MEMO,
        idempotency_key: "memo-1",
      },
    });
    const { transfer } = answerOf<PayAnswer>(paid);
    const settled = await eventually(
      () =>
        call<{ transfer: TTransferDetail }>(second.host, "get_transfer", {
          transfer_id: transfer.transfer_id,
        }),
      (read) => read.transfer.status !== "pending",
      60_000,
      200,
    );

    expect(settled.transfer.status).toBe("confirmed");
    expect(await floristPublic()).toBe(500_000n);
    expect(await courierPublic()).toBe(usdg(20) - 500_000n);
    const transaction = await landedTransaction(world.chain, settled.transfer.tx_signature as string);
    const read = await readTransferMemo({ transaction, keys: keysOf(florist), chain: world.chain });
    expect(read.memoText).toBe(MEMO);
    // Positive control: the proxy saw the signed transaction go to the relay.
    expect(proxy.said.some((request) => request.startsWith("POST /v1/relay"))).toBe(true);
    const seen = [...proxy.said, ...proxy.heard, ...second.stderr, ...world.logs, textOf(paid)];
    expect(seen.filter((text) => text.includes(MEMO))).toEqual([]);
  }, 120_000);

  it("Given a confidential payment with a memo, When paid, Then it is refused before the human is asked, with the code, message and field /v1 gives an agent, and nothing moves", async () => {
    const clerk = await createTestAgent(world, owner, "clerk");
    const v1 = await world.fetch("/v1/transfers", {
      method: "POST",
      key: clerk.key.value,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ to: "@merchant", amount: "12", memo: MEMO }),
    });
    const { error } = (await v1.json()) as { error: { code: string; message: string; param: string } };
    humanAnswer = { action: "accept", content: { approve: true } };
    asked.length = 0;
    const balance = await call<{ confidential_available: string }>(client, "balance");
    const before = await call<{ total: number }>(client, "list_transfers", {});
    const result = await client.callTool({
      name: "pay",
      arguments: { to: "@merchant", amount: "12", memo: MEMO, idempotency_key: "memo-confidential-1" },
    });

    expect(v1.status).toBe(400);
    expect(error).toMatchObject({
      code: "invalid_request",
      param: "memo",
      message: MEMO_REFUSALS.agentConfidentialTransfer,
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: { code: error.code, message: error.message, param: error.param },
    });
    expect(asked).toEqual([]);
    expect(await call<{ confidential_available: string }>(client, "balance")).toMatchObject(balance);
    expect((await call<{ total: number }>(client, "list_transfers", {})).total).toBe(before.total);
  }, 120_000);
});
