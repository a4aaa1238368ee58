/**
 * The Express 5 application: request id -> the `X-Cpay-Environment` header's check
 * (environment-header.ts) -> the `/v1` body, read only when sent as `application/json` (64 KiB,
 * UTF-8; anything else is 415: json-body.ts) -> the `/v1` routes from the shared route table ->
 * the OpenAPI document -> the x402 facilitator at `/v1/x402` (handlers/x402.ts) -> the MCP door at `/mcp` (mcp/mount-mcp.ts: the same routes' work as MCP
 * tools) -> the dashboard web app (its files, and its pages to a request that asks
 * for HTML, never under `/v<n>`: serve-dashboard.ts) -> the JSON 404 -> the one error handler.
 * Access logs carry method, route, status, duration and ids, never bodies or headers with secrets.
 */
import { buildOpenApiDocument } from "@cpay/sdk/api";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { createAuthFailureLimiter } from "./auth-failure-limit";
import { checkEnvironmentHeader } from "./environment-header";
import { createErrorHandler, sendError } from "./error-handler";
import { mountX402 } from "./handlers/x402";
import { jsonBody } from "./json-body";
import { mountMcp } from "./mcp/mount-mcp";
import { type Handlers, mountRoutes } from "./mount-routes";
import { createRateLimiter } from "./rate-limit";
import { requestId, requestIdOf } from "./request-id";
import { serveDashboard } from "./serve-dashboard";

export interface AppOptions {
  readonly handlers: Handlers;
  /** Validate every response against its contract (on in tests; a mismatch is a 500). */
  readonly checkResponses?: boolean;
  /** Public URL written into the OpenAPI document's `servers`. */
  readonly publicUrl?: string;
  /** The dashboard's build output served at `/` (default: dashboard/dist of this checkout). */
  readonly dashboardDir?: string;
}

export function createApp(service: ServiceContext, options: AppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  // Which proxies are believed about the client address (`request.ip`): TRUST_PROXY, none by default.
  const trustProxy = service.config.trustProxy;
  app.set("trust proxy", typeof trustProxy === "object" ? [...trustProxy] : trustProxy);
  app.use(requestId);
  app.use(accessLog(service));
  app.use("/v1", checkEnvironmentHeader(service));
  app.use("/v1", jsonBody());
  const openApi = buildOpenApiDocument(
    options.publicUrl ?? `http://${service.config.host}:${service.config.port}`,
  );
  app.get("/v1/openapi.json", (_request, response) => {
    response.json(openApi);
  });
  // One rate limiter and one failed-authentication budget for both doors: a key's requests count
  // alike whether they come as `/v1` routes or as MCP tool calls.
  const serving = {
    service,
    handlers: options.handlers,
    rateLimiter: createRateLimiter(service.db, service.config.rateLimitPerMinute),
    authFailureLimiter: createAuthFailureLimiter(
      service.db,
      service.config.authFailureLimitPerMinute,
      service.clock,
    ),
    checkResponses: options.checkResponses ?? false,
  };
  mountRoutes(app, serving);
  mountX402(app, serving);
  mountMcp(app, serving);
  app.use(serveDashboard(options.dashboardDir));
  app.use((_request: Request, response: Response) => {
    sendError(response, new ApiError("not_found", "no such route"));
  });
  app.use(createErrorHandler(service.logger));
  return app;
}

function accessLog(service: ServiceContext) {
  return (request: Request, response: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    response.on("finish", () => {
      service.logger.info(
        {
          request_id: requestIdOf(response),
          method: request.method,
          route: (request.route as { path?: string } | undefined)?.path ?? "unmatched",
          status: response.statusCode,
          duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
          account_id: response.locals.accountId,
        },
        "request",
      );
    });
    next();
  };
}
