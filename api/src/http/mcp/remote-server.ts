/**
 * The remote MCP server of one `/mcp` request: the tools of remote-tools.ts, each calling its `/v1`
 * route's work for the request's caller (serve-route.ts), so both doors share every rule. A
 * refusal is a tool error naming its code and rule; a refusal replayed by the idempotency store too.
 * When authentication refused the key otherwise than `401` (authenticate-mcp.ts), every tool
 * answers that refusal.
 */
import { serveTool, toolAnswer, toolRefusal } from "@cpay/mcp/tools";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Request, Response } from "express";
import { ApiError } from "../../core/api-error";
import type { Caller } from "../authenticate";
import { requestIdOf } from "../request-id";
import { type RouteServing, replayedErrorOf, serveRoute } from "../serve-route";
import { refusalOfApiError, remoteFailureReading } from "./remote-refusals";
import { REMOTE_TOOLS } from "./remote-tools";

export const REMOTE_SERVER_NAME = "cpay";

const INSTRUCTIONS = [
  "Payments and agent accounts of the cpay service, for the account the API key belongs to.",
  "pay answers a transfer id: follow it with get_transfer. An agent's payment above its owner's approval threshold is held until the owner approves it: do not pay it again.",
  "Always give pay an idempotency_key and reuse it when retrying the same payment: it pays at most once.",
  "Amounts are never shown: confidential ones are readable only with the account's own keys.",
].join(" ");

export function createRemoteServer(
  serving: RouteServing,
  caller: Caller | ApiError,
  request: Request,
  response: Response,
): McpServer {
  const server = new McpServer(
    { name: REMOTE_SERVER_NAME, version: "1.0.0" },
    { instructions: INSTRUCTIONS },
  );
  const failures = remoteFailureReading(serving.service.logger, requestIdOf(response));
  for (const tool of REMOTE_TOOLS) {
    serveTool(server, tool.definition, failures, async (args) => {
      if (caller instanceof ApiError) throw caller;
      const input = tool.input(args);
      const answer = await serveRoute(serving, tool.route, {
        caller,
        params: input.params,
        query: input.query ?? {},
        body: input.body,
        idempotencyKey: input.idempotencyKey,
        request,
        response,
      });
      const replayedError = replayedErrorOf(answer);
      if (replayedError !== undefined) {
        return toolRefusal(
          refusalOfApiError(replayedError as { code: string; message: string; param?: string }),
        );
      }
      const [summary, body] = tool.answer(answer.body as Record<string, unknown>, answer.replayed);
      return toolAnswer(summary, body);
    });
  }
  return server;
}
