/**
 * Each remote tool as the `/v1` route it calls (serve-route.ts: the same rate limit, audience,
 * validation, idempotency store, use case, reserve budget and refusals as that route over HTTP):
 * how its arguments become the route's path ids, query, body and Idempotency-Key, and the sentence
 * its answer gets. Answers are the routes' own bodies: no amount is ever among them.
 */
import {
  approveTransactionTool,
  getAccountTool,
  getBalancesTool,
  getSpendPolicyTool,
  getTransferTool,
  listAgentsTool,
  listPendingApprovalsTool,
  listTransfersTool,
  payTool,
  rejectTransactionTool,
  type ToolDefinition,
  type TransferFacts,
  transferSummary,
  updateSpendPolicyTool,
} from "@cpay/mcp/tools";
import type { ApiRouteId } from "@cpay/sdk/api";
import type { z } from "zod";

/** What a tool call puts in its route call. */
export interface RouteInput {
  readonly params?: Record<string, string>;
  readonly query?: Record<string, unknown>;
  readonly body?: Record<string, unknown>;
  readonly idempotencyKey?: string;
}

export interface RemoteTool<Input extends z.ZodObject = z.ZodObject> {
  readonly definition: ToolDefinition<Input>;
  readonly route: ApiRouteId;
  readonly input: (args: z.output<Input>) => RouteInput;
  /** The sentence for the model, and the answer as the tool gives it. */
  readonly answer: (body: Record<string, unknown>, replayed: boolean) => [string, Record<string, unknown>];
}

function remoteTool<Input extends z.ZodObject>(tool: RemoteTool<Input>): RemoteTool {
  return tool as unknown as RemoteTool;
}

/** `args` without the fields it does not set, nor `omit`. */
function given(args: Record<string, unknown>, ...omit: string[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).filter(([key, value]) => value !== undefined && !omit.includes(key)),
  );
}

const asIs =
  (summary: string) =>
  (body: Record<string, unknown>): [string, Record<string, unknown>] => [summary, body];

const transferAnswer = (
  body: Record<string, unknown>,
  replayed: boolean,
): [string, Record<string, unknown>] => [
  transferSummary(body as unknown as TransferFacts, { replayed }),
  { transfer: body, ...(replayed ? { replayed: true } : {}) },
];

export const REMOTE_TOOLS: readonly RemoteTool[] = [
  remoteTool({
    definition: payTool,
    route: "createTransfer",
    input: (args) => ({ body: given(args, "idempotency_key"), idempotencyKey: args.idempotency_key }),
    answer: transferAnswer,
  }),
  remoteTool({
    definition: getTransferTool,
    route: "getTransfer",
    input: (args) => ({ params: { transfer_id: args.transfer_id } }),
    answer: (body) => transferAnswer(body, false),
  }),
  remoteTool({
    definition: listTransfersTool,
    route: "listTransfers",
    input: (args) => ({ query: given(args) }),
    answer: (body) => [
      `${(body.transfers as unknown[]).length} of ${String(body.total)} transfers (newest first).`,
      body,
    ],
  }),
  remoteTool({
    definition: getAccountTool,
    route: "getMe",
    input: () => ({}),
    answer: asIs("The account this API key belongs to."),
  }),
  remoteTool({
    definition: getBalancesTool,
    route: "getBalances",
    input: () => ({}),
    answer: asIs("Whether each balance is non-zero; amounts are readable only with the account's own keys."),
  }),
  remoteTool({
    definition: listAgentsTool,
    route: "listAgents",
    input: () => ({}),
    answer: asIs("The agents under this account."),
  }),
  remoteTool({
    definition: getSpendPolicyTool,
    route: "getSpendPolicy",
    input: (args) => ({ params: { account_id: args.agent_id } }),
    answer: asIs("The agent's spend policy, as the chain enforces it."),
  }),
  remoteTool({
    definition: updateSpendPolicyTool,
    route: "updateSpendPolicy",
    input: (args) => ({ params: { account_id: args.agent_id }, body: given(args, "agent_id") }),
    answer: asIs("The agent's spend policy now in force on-chain."),
  }),
  remoteTool({
    definition: listPendingApprovalsTool,
    route: "listPendingApprovals",
    input: () => ({}),
    answer: asIs("The agents' payments waiting for the owner's approval (amounts sealed to the owner)."),
  }),
  remoteTool({
    definition: approveTransactionTool,
    route: "approveTransaction",
    input: (args) => ({ params: { transaction_id: args.transaction_id } }),
    answer: asIs("Approved: the held payment was executed."),
  }),
  remoteTool({
    definition: rejectTransactionTool,
    route: "rejectTransaction",
    input: (args) => ({ params: { transaction_id: args.transaction_id } }),
    answer: asIs("Rejected: the held payment was discarded; nothing moved."),
  }),
];
