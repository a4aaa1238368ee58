/**
 * The local MCP server of a self-custody agent: the tools of `LOCAL_SERVER_TOOLS` over its
 * connected client (`connectAgent` of `@cpay/sdk/agent-client`), for any transport (stdio in
 * main.ts, in-memory in tests). It runs in the agent's host with the agent's keys: it signs through
 * the agent's PDA, submits through the service's relay, and decrypts the agent's own figures here.
 */
import type { ConnectedAgent } from "@cpay/sdk/agent-client";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { balanceTool, getPolicyTool, remainingBudgetTool } from "../tools/agent-budget-tools";
import { fetchPaidTool } from "../tools/fetch-paid-tool";
import { payTool, previewPaymentTool } from "../tools/pay-tools";
import { serveTool } from "../tools/serve-tool";
import { getTransferTool, listTransfersTool } from "../tools/transfer-tools";
import { localBalance, localGetPolicy, localRemainingBudget } from "./agent-figures";
import { localFetchPaid } from "./fetch-paid";
import { localRefusalOf } from "./local-refusals";
import { localPay } from "./pay";
import { localPreviewPayment } from "./preview-payment";
import { localGetTransfer, localListTransfers } from "./transfer-reads";

export const LOCAL_SERVER_NAME = "cpay-agent";

const INSTRUCTIONS = [
  "Payments from this AI agent's cpay account, under the spend policy its owner set, which the Solana program enforces (nobody can talk past it).",
  "Before paying, remaining_budget and preview_payment tell what the policy allows now. pay answers a transfer id: follow it with get_transfer.",
  "A payment above the owner's approval threshold is held until a human approves it: do not pay it again.",
  "Always give pay an idempotency_key and reuse it when retrying the same payment: it pays at most once.",
  "fetch_paid fetches a URL and pays its HTTP 402 (x402) price under the same policy; calling it again pays again.",
].join(" ");

export interface LocalServerOptions {
  /** Base units of USDG above which the human confirms first (elicitation); null: never. */
  readonly confirmAbove: bigint | null;
  /** Where an unexpected failure is reported (default: stderr; stdout carries the protocol). */
  readonly onUnexpected?: (error: unknown, tool: string) => void;
  readonly version?: string;
}

export function createLocalServer(agent: ConnectedAgent, options: LocalServerOptions): McpServer {
  const server = new McpServer(
    { name: LOCAL_SERVER_NAME, version: options.version ?? "1.0.0" },
    { instructions: INSTRUCTIONS },
  );
  const failures = {
    refusalOf: localRefusalOf,
    onUnexpected: options.onUnexpected ?? reportToStderr,
  };
  serveTool(server, payTool, failures, localPay({ agent, server, confirmAbove: options.confirmAbove }));
  serveTool(server, previewPaymentTool, failures, localPreviewPayment(agent));
  serveTool(server, remainingBudgetTool, failures, localRemainingBudget(agent));
  serveTool(server, balanceTool, failures, localBalance(agent));
  serveTool(server, getTransferTool, failures, localGetTransfer(agent));
  serveTool(server, listTransfersTool, failures, localListTransfers(agent));
  serveTool(server, getPolicyTool, failures, localGetPolicy(agent));
  serveTool(
    server,
    fetchPaidTool,
    failures,
    localFetchPaid({ agent, server, confirmAbove: options.confirmAbove }),
  );
  return server;
}

function reportToStderr(error: unknown, tool: string): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`cpay-mcp: ${tool} failed unexpectedly: ${detail}\n`);
}
