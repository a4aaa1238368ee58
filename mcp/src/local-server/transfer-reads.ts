/** The agent's transfers as the service records them (`/v1` with the agent's own key): never an amount. */
import type { ConnectedAgent } from "@cpay/sdk/agent-client";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { toolAnswer } from "../tools/tool-results";
import { transferSummary } from "../tools/transfer-summary";
import type { getTransferTool, listTransfersTool } from "../tools/transfer-tools";

export function localGetTransfer(agent: ConnectedAgent) {
  return async (args: z.output<(typeof getTransferTool)["inputSchema"]>): Promise<CallToolResult> => {
    const transfer = await agent.api.call("getTransfer", { params: { transfer_id: args.transfer_id } });
    return toolAnswer(transferSummary(transfer), { transfer });
  };
}

export function localListTransfers(agent: ConnectedAgent) {
  return async (args: z.output<(typeof listTransfersTool)["inputSchema"]>): Promise<CallToolResult> => {
    const list = await agent.api.call("listTransfers", { query: withoutUnset(args) });
    return toolAnswer(`${list.transfers.length} of ${list.total} transfers (newest first).`, list);
  };
}

function withoutUnset<T extends Record<string, unknown>>(args: T): Partial<T> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined)) as Partial<T>;
}
