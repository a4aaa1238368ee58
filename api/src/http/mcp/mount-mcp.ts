/**
 * The `/mcp` door: the remote MCP server over streamable HTTP, on the API's own port, beside `/v1`
 * (one app per environment; the front router sends a `svc_live_` bearer to the live one).
 *
 * Stateless: every POST is authenticated (mcp-authentication.ts), gets a server of its own
 * (remote-server.ts) and a transport of its own, answers in JSON, and leaves nothing behind. So any
 * number of API processes sharing one database serve `/mcp` as they serve `/v1` (the database is
 * the coordination point: rate windows, idempotency keys), with no session pinning a client to a
 * process. Consequently the server offers no stream of its own: a GET (a standalone SSE stream) and
 * a DELETE (ending a session) are authenticated like a POST and then answered `405` with `Allow:
 * POST`, as the protocol lets a server without sessions answer them. The body is at most 64 KiB,
 * as on `/v1`.
 */
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Express, Request, Response } from "express";
import { ApiError } from "../../core/api-error";
import type { AuthFailureLimiter } from "../auth-failure-limit";
import type { RouteServing } from "../serve-route";
import { authenticateMcp } from "./mcp-authentication";
import { createRemoteServer } from "./remote-server";

export const MCP_PATH = "/mcp";
const MAX_BODY_BYTES = 64 * 1024;

export function mountMcp(
  app: Express,
  serving: RouteServing & { readonly authFailureLimiter: AuthFailureLimiter },
): void {
  app.post(MCP_PATH, async (request: Request, response: Response) => {
    const caller = await authenticateMcp(serving.service, serving.authFailureLimiter, request);
    if (!(caller instanceof ApiError)) response.locals.accountId = caller.account.id;
    response.setHeader("Cache-Control", "no-store");
    const server = createRemoteServer(serving, caller, request, response);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  const notOffered = async (request: Request) => {
    await authenticateMcp(serving.service, serving.authFailureLimiter, request);
    throw new ApiError(
      "method_not_allowed",
      "this MCP server keeps no sessions and offers no stream: send every message as a POST",
      undefined,
      { Allow: "POST" },
    );
  };
  app.get(MCP_PATH, notOffered);
  app.delete(MCP_PATH, notOffered);
  app.all(MCP_PATH, () => {
    throw new ApiError("method_not_allowed", "this route does not accept that method", undefined, {
      Allow: "POST",
    });
  });
}
