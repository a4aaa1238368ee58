/**
 * The shared tool definitions as a client meets them: registered on a server and listed over the
 * SDK's own in-memory transport, each input schema is a JSON Schema that compiles, describes every
 * field, admits a well-formed call and refuses an unknown field; the annotations say which tools
 * only read and which move money; a handler's refusal and an unexpected failure both reach the
 * client as tool errors, the second without its detail.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_SERVER_TOOLS, REMOTE_SERVER_TOOLS, serveTool, type ToolDefinition, toolAnswer } from "./index";

const EVERY_TOOL: readonly ToolDefinition[] = [
  ...new Map([...LOCAL_SERVER_TOOLS, ...REMOTE_SERVER_TOOLS].map((tool) => [tool.name, tool])).values(),
];

/** A well-formed call of each tool (what a model following the descriptions would send). */
const GOOD_ARGUMENTS: Readonly<Record<string, Record<string, unknown>>> = {
  pay: { to: "@merchant", amount: "12.50", idempotency_key: "order-1001" },
  preview_payment: { to: "@merchant", amount: "0.000001", confidential: false },
  get_transfer: { transfer_id: "tr_aaaaaaaaaaaaaaaaaaaaaaaaaa" },
  list_transfers: { limit: 5, status: "confirmed" },
  get_spend_policy: { agent_id: "acct_aaaaaaaaaaaaaaaaaaaaaaaaaa" },
  update_spend_policy: { agent_id: "acct_aaaaaaaaaaaaaaaaaaaaaaaaaa", daily_limit_usdg: "100" },
  approve_transaction: { transaction_id: "tx_aaaaaaaaaaaaaaaaaaaaaaaaaa" },
  reject_transaction: { transaction_id: "tx_aaaaaaaaaaaaaaaaaaaaaaaaaa" },
  fetch_paid: { url: "https://api.example.com/report?day=1" },
};

let client: Client;
let server: McpServer;
const unexpected: string[] = [];

beforeAll(async () => {
  server = new McpServer({ name: "definitions", version: "0" });
  const failures = {
    refusalOf: (error: unknown) =>
      error instanceof RangeError
        ? { code: "policy_violation", message: "over", param: "daily_limit_usdg" }
        : null,
    onUnexpected: (error: unknown, tool: string) => {
      unexpected.push(`${tool}: ${String(error)}`);
    },
  };
  for (const tool of EVERY_TOOL) {
    serveTool(server, tool, failures, async (args) => {
      if (tool.name === "pay") throw new RangeError("refused");
      if (tool.name === "get_account") throw new Error("secret detail at /srv/internal.ts:12");
      return toolAnswer("ok", { args });
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: "test", version: "0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe("the shared tool definitions", () => {
  it("Given every tool registered, When a client lists them, Then each input schema is a JSON Schema that compiles, describes each field and admits a well-formed call", async () => {
    const { tools } = await client.listTools();

    expect(tools.map((tool) => tool.name).sort()).toEqual(EVERY_TOOL.map((tool) => tool.name).sort());
    const validator = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      const validate = validator.getValidator(tool.inputSchema);
      expect(validate(GOOD_ARGUMENTS[tool.name] ?? {}).valid, tool.name).toBe(true);
      expect(validate({ ...GOOD_ARGUMENTS[tool.name], surprise: 1 }).valid, tool.name).toBe(false);
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(40);
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
  });

  it("Given the annotations, When read, Then reads are read-only and idempotent, and pay, approving and rejecting are destructive", async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool.annotations]));

    for (const name of [
      "get_transfer",
      "list_transfers",
      "balance",
      "remaining_budget",
      "get_policy",
      "list_agents",
    ]) {
      expect(byName.get(name), name).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    }
    expect(byName.get("pay")).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(byName.get("approve_transaction")).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get("update_spend_policy")).toMatchObject({ destructiveHint: true, idempotentHint: false });
  });

  it("Given pay's schema, When an amount is a number, negative, or has 7 decimals, or the key is missing, Then each call is a tool error and the handler never runs", async () => {
    const bad = [
      { to: "@merchant", amount: 12.5, idempotency_key: "k" },
      { to: "@merchant", amount: "-1", idempotency_key: "k" },
      { to: "@merchant", amount: "1.0000001", idempotency_key: "k" },
      { to: "@merchant", amount: "1" },
      { to: "@merchant", amount: "1", idempotency_key: "has space" },
    ];
    for (const args of bad) {
      const result = await client.callTool({ name: "pay", arguments: args });

      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/Input validation error/);
    }
  });

  it("Given a handler that refuses, and one that fails unexpectedly, When called, Then both are tool errors: the refusal names its rule and next step, the failure shows none of its detail", async () => {
    const refused = await client.callTool({
      name: "pay",
      arguments: { to: "@merchant", amount: "1", idempotency_key: "k" },
    });
    const failed = await client.callTool({ name: "get_account", arguments: {} });

    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(
      /policy_violation \(rule: daily_limit_usdg\).*raise daily_limit_usdg/,
    );
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toMatch(/internal_error/);
    expect(JSON.stringify(failed.content)).not.toMatch(/secret detail|internal\.ts/);
    expect(unexpected).toEqual(["get_account: Error: secret detail at /srv/internal.ts:12"]);
  });

  it("Given a tool nobody serves, When called, Then it is a tool error, not a protocol error", async () => {
    const result = await client.callTool({ name: "pay_everyone", arguments: {} });

    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/pay_everyone not found/);
  });
});
