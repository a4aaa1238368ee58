/**
 * The service's `/mcp` door as an integrator's host meets it: the SDK's own `Client` over streamable
 * HTTP, an API key as the bearer, against the API and the indexer of one world. Each tool calls
 * its `/v1` route's work, so the answers, refusals and idempotency are `/v1`'s: payments confirm, a
 * retried call pays once (through MCP and through `/v1` alike: one idempotency store), a payment
 * above the HITL threshold is held until the owner approves it, each spend-policy rule refuses
 * through the tool by name, bad input of every kind is a tool error that changes nothing, a bad key
 * is a `401` with its `WWW-Authenticate` challenge — and no message the server sends carries an
 * amount, a memo or a secret.
 */
import { issueApiKey, revokeApiKey } from "@cpay/api";
import { REMOTE_SERVER_TOOLS } from "@cpay/mcp/tools";
import type { TTransferDetail } from "@cpay/sdk/api";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAgent, TEST_POLICY, type WorldAgent } from "../api/support/agents";
import { confidentialUsdg, eventually, keysOf, publicUsdg } from "../api/support/held-transfer";
import { type ApiWorld, startApiWorld, usdg, type WorldAccount } from "../support/api-world";
import { plaintextNeedles } from "../support/plaintext-needles";
import { call, textOf } from "./support/mcp-results";
import { connectRemoteClient, type RemoteClient, type Transcript } from "./support/remote-client";

/** Odd amounts that cannot occur by accident, and a memo: none may come back from the server. */
const PUBLIC_AMOUNT = "2.718283";
const CONFIDENTIAL_AMOUNT = "7.319457";
const MEMO = "canary memo: mcp order 55013 for the green widgets";
/** The restricted agent: per transaction 4, daily 5, HITL 4 USDG; only @merchant. */
const RESTRICTED_POLICY = {
  daily_limit_usdg: 5,
  per_transaction_limit_usdg: 4,
  hitl_threshold_usdg: 4,
  assets: ["USDG"],
  allowed_recipients: ["merchant"],
};

let world: ApiWorld;
let owner: WorldAccount;
let merchant: WorldAccount;
let agent: WorldAgent;
let restricted: WorldAgent;
let ownerMcp: RemoteClient;
let agentMcp: RemoteClient;
let restrictedMcp: RemoteClient;
/** Every message between the suite's MCP clients and the server. */
const transcript: Transcript = { heard: [], said: [] };

interface PayAnswer {
  readonly transfer: TTransferDetail;
  readonly replayed?: true;
}

const merchantPublic = () => publicUsdg(world, merchant.account.publicKey);

function settled(remote: RemoteClient, transferId: string): Promise<TTransferDetail> {
  return eventually(
    async () =>
      (await call<{ transfer: TTransferDetail }>(remote.client, "get_transfer", { transfer_id: transferId }))
        .transfer,
    (transfer) => transfer.status !== "pending",
    60_000,
    100,
  );
}

/** Calls a tool that must refuse; returns the text a model reads. */
async function refusal(remote: RemoteClient, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await remote.client.callTool({ name, arguments: args });
  expect(result.isError, `${name} ${JSON.stringify(args)}: ${textOf(result)}`).toBe(true);
  return textOf(result);
}

beforeAll(async () => {
  world = await startApiWorld();
  owner = await world.account("owner", { type: "business" });
  merchant = await world.account("merchant", { type: "business" });
  await world.account("stranger");
  await world.fund(owner.account, { public: usdg(50), confidential: usdg(50) });
  agent = await createTestAgent(world, owner, "buyer");
  await world.fund(agent.row, { public: usdg(200) });
  restricted = await createTestAgent(world, owner, "picky", RESTRICTED_POLICY);
  await world.fund(restricted.row, { public: usdg(20) });
  ownerMcp = await connectRemoteClient(world.url, owner.key.value, transcript);
  agentMcp = await connectRemoteClient(world.url, agent.key.value, transcript);
  restrictedMcp = await connectRemoteClient(world.url, restricted.key.value, transcript);
}, 300_000);

afterAll(async () => {
  await Promise.all([ownerMcp, agentMcp, restrictedMcp].map((remote) => remote?.close()));
  await world?.close();
});

describe("the remote MCP server at /mcp", () => {
  it("Given an API key, When the tools are listed, Then they are the remote set and every input schema is valid JSON Schema", async () => {
    const { tools } = await ownerMcp.client.listTools();

    expect(tools.map((tool) => tool.name).sort()).toEqual(
      REMOTE_SERVER_TOOLS.map((tool) => tool.name).sort(),
    );
    const validator = new AjvJsonSchemaValidator();
    for (const tool of tools) expect(() => validator.getValidator(tool.inputSchema), tool.name).not.toThrow();
  });

  it("Given the owner's key, When it pays in public and confidentially with a memo, Then both confirm and the holders' decrypted balances match the chain", async () => {
    const paid = await call<PayAnswer>(ownerMcp.client, "pay", {
      to: "@merchant",
      amount: PUBLIC_AMOUNT,
      confidential: false,
      idempotency_key: "public-1",
    });
    const hidden = await call<PayAnswer>(ownerMcp.client, "pay", {
      to: "@merchant",
      amount: CONFIDENTIAL_AMOUNT,
      memo: MEMO,
      idempotency_key: "confidential-1",
    });

    expect((await settled(ownerMcp, paid.transfer.transfer_id)).status).toBe("confirmed");
    expect((await settled(ownerMcp, hidden.transfer.transfer_id)).status).toBe("confirmed");
    expect(await merchantPublic()).toBe(2_718_283n);
    const received = await confidentialUsdg(world, merchant.account.publicKey, keysOf(merchant));
    expect(received.available + received.pending).toBe(7_319_457n);
    const left = await confidentialUsdg(world, owner.account.publicKey, keysOf(owner));
    expect(left.available).toBe(usdg(50) - 7_319_457n);
  }, 180_000);

  it("Given a paid call, When it is repeated with the same idempotency key through MCP and through /v1, Then both replay the one transfer, and the key with another amount is refused", async () => {
    const args = { to: "@merchant", amount: PUBLIC_AMOUNT, confidential: false, idempotency_key: "public-1" };
    const again = await call<PayAnswer>(ownerMcp.client, "pay", args);
    const overV1 = await world.fetch("/v1/transfers", {
      method: "POST",
      key: owner.key.value,
      headers: { "content-type": "application/json", "idempotency-key": "public-1" },
      body: JSON.stringify({ to: "@merchant", amount: PUBLIC_AMOUNT, asset: "USDG", confidential: false }),
    });
    const otherAmount = await refusal(ownerMcp, "pay", { ...args, amount: "1" });

    expect(again.replayed).toBe(true);
    expect(overV1.headers.get("idempotent-replayed")).toBe("true");
    expect(((await overV1.json()) as { transfer_id: string }).transfer_id).toBe(again.transfer.transfer_id);
    expect(otherAmount).toMatch(/idempotency_key_reused/);
    expect(await merchantPublic()).toBe(2_718_283n);
  }, 60_000);

  it("Given an agent's payment above its HITL threshold, When it is held, Then the agent's key cannot approve it, the owner sees it, and once approved through /v1 it confirms", async () => {
    const held = await call<PayAnswer>(agentMcp.client, "pay", {
      to: "@merchant",
      amount: String(TEST_POLICY.hitl_threshold_usdg + 10),
      confidential: false,
      idempotency_key: "held-1",
    });
    const transactionId = held.transfer.approval?.transaction_id as string;
    expect(transactionId).toMatch(/^tx_/);
    expect(await merchantPublic()).toBe(2_718_283n);

    expect(await refusal(agentMcp, "approve_transaction", { transaction_id: transactionId })).toMatch(
      /agent_key_not_allowed.*owner's API key/,
    );
    expect(await refusal(agentMcp, "list_agents", {})).toMatch(/agent_key_not_allowed/);
    const pending = await call<{ pending: { transaction_id: string }[] }>(
      ownerMcp.client,
      "list_pending_approvals",
    );
    expect(pending.pending.map((hold) => hold.transaction_id)).toContain(transactionId);

    await owner.client.call("approveTransaction", { params: { transaction_id: transactionId } });
    expect((await settled(agentMcp, held.transfer.transfer_id)).status).toBe("confirmed");
    expect(await merchantPublic()).toBe(2_718_283n + usdg(60));
  }, 120_000);

  it("Given a restricted agent, When each spend-policy rule is broken through pay, Then each is a tool error naming its rule and only the allowed payment moves", async () => {
    const pay = (to: string, amount: string, key: string) =>
      refusal(restrictedMcp, "pay", { to, amount, confidential: false, idempotency_key: key });
    const before = await merchantPublic();

    expect(await pay("@merchant", "4.5", "rule-1")).toMatch(
      /policy_violation \(rule: per_transaction_limit_usdg\)/,
    );
    expect(await pay("@stranger", "1", "rule-2")).toMatch(/policy_violation \(rule: allowed_recipients\)/);
    await call<PayAnswer>(restrictedMcp.client, "pay", {
      to: "@merchant",
      amount: "3",
      confidential: false,
      idempotency_key: "rule-3",
    });
    expect(await pay("@merchant", "3", "rule-4")).toMatch(/policy_violation \(rule: daily_limit_usdg\)/);
    const { unixTimestamp } = await world.testClock.clock();
    const minute = Number((unixTimestamp % 86_400n) / 60n);
    const hhmm = (m: number) =>
      `${String(Math.floor((m % 1440) / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
    await call(ownerMcp.client, "update_spend_policy", {
      agent_id: restricted.agent.account_id,
      active_hours: `${hhmm(minute + 120)}-${hhmm(minute + 180)}`,
    });
    expect(await pay("@merchant", "1", "rule-5")).toMatch(/policy_violation \(rule: active_hours\)/);

    expect(await merchantPublic()).toBe(before + usdg(3));
  }, 120_000);

  it("Given bad input of every kind, When called, Then each is a clear tool error and nothing changes", async () => {
    const transfersBefore = (await call<{ total: number }>(ownerMcp.client, "list_transfers")).total;
    const liveKey = await issueApiKey(world.service.context, {
      accountId: owner.account.id,
      name: "live",
      environment: "live",
    });
    const liveMcp = await connectRemoteClient(world.url, liveKey.value, transcript);
    const pay = { to: "@merchant", amount: "1", idempotency_key: "bad-input" };

    expect(await refusal(ownerMcp, "pay", { ...pay, amount: 1 })).toMatch(/expected string/);
    expect(await refusal(ownerMcp, "pay", { ...pay, amount: "-1" })).toMatch(/decimal string/);
    expect(await refusal(ownerMcp, "pay", { ...pay, amount: "1.0000001" })).toMatch(/at most 6 decimals/);
    expect(await refusal(ownerMcp, "pay", { ...pay, to: "@nobody-here" })).toMatch(
      /recipient_not_found \(field: to\)/,
    );
    expect(await refusal(ownerMcp, "pay", { ...pay, surprise: true })).toMatch(/surprise/);
    expect(await refusal(ownerMcp, "pay_twice", {})).toMatch(/pay_twice not found/);
    expect(await refusal(ownerMcp, "get_transfer", { transfer_id: "tr_aaaaaaaaaaaaaaaaaaaaaaaaaa" })).toMatch(
      /transfer_not_found/,
    );
    expect(await refusal(liveMcp, "pay", pay)).toMatch(/live_mode_unavailable.*svc_test_/);
    await liveMcp.close();

    expect((await call<{ total: number }>(ownerMcp.client, "list_transfers")).total).toBe(transfersBefore);
    expect(await merchantPublic()).toBe(2_718_283n + usdg(63));
  }, 60_000);

  it("Given a missing, malformed or revoked key, When /mcp is called, Then it is a 401 with the WWW-Authenticate challenge, and GET and DELETE are 405 for a good key", async () => {
    const revoked = await issueApiKey(world.service.context, {
      accountId: owner.account.id,
      name: "old",
      environment: "test",
    });
    await revokeApiKey(world.service.context, revoked.id);
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const post = (key?: string) =>
      world.fetch("/mcp", {
        method: "POST",
        ...(key === undefined ? {} : { key }),
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: initialize,
      });

    const missing = await post();
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="cpay"');
    for (const key of [revoked.value, "svc_test_short"]) {
      const refused = await post(key);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer realm="cpay", error="invalid_token"/);
    }
    await expect(connectRemoteClient(world.url, revoked.value, { heard: [], said: [] })).rejects.toThrow();
    for (const method of ["GET", "DELETE"]) {
      const answer = await world.fetch("/mcp", { method, key: owner.key.value });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get("allow")).toBe("POST");
      expect((await world.fetch("/mcp", { method })).status, method).toBe(401);
    }
  });

  it("Given everything the server sent to this suite's MCP clients and every log line, When searched, Then no amount, memo or secret is there", () => {
    const sent = transcript.heard.join("\n");
    const logged = world.logs.join("\n");
    const secrets = [owner.confidentialSecret, merchant.confidentialSecret, owner.key.value, agent.key.value];
    // Positive controls: the search finds what is there, the amount and memo the client did send.
    const said = transcript.said.join("\n");
    expect(said).toContain(CONFIDENTIAL_AMOUNT);
    expect(said).toContain(MEMO);
    for (const needle of [
      ...plaintextNeedles(PUBLIC_AMOUNT),
      ...plaintextNeedles(CONFIDENTIAL_AMOUNT),
      MEMO,
      ...secrets,
    ]) {
      expect(sent.includes(needle), `sent ${needle}`).toBe(false);
      expect(logged.includes(needle), `logged ${needle}`).toBe(false);
    }
  });
});
