/**
 * The admin HTTP application: admin token check -> JSON body -> `/admin` routes -> 404 -> one error
 * handler. Errors are `{"error": {"code", "message"}}` with the code's status; an unexpected failure
 * is logged (masked, like `/v1`) and answered 500 without details.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { AdminError } from "../../admin/admin-error";
import { ADMIN_ENVIRONMENT_HEADER } from "../../admin/admin-settings";
import type { UsdgFaucet } from "../../chain/usdg-faucet";
import { describeUnexpected } from "../../core/describe-unexpected";
import type { ServiceContext } from "../../core/service-context";
import { reserveMetricsText } from "../../reserve/reserve-metrics";
import { parserErrorOf } from "../error-handler";
import { adminRoutes } from "./admin-routes";

/** The environments the admin surface reaches; accounts and keys live in each one's own database. */
export interface AdminEnvironments {
  readonly test: ServiceContext;
  readonly live: ServiceContext | null;
}

/**
 * Builds the admin app; every request must carry `Authorization: Bearer <admin token>`, and acts on
 * the environment its `X-Cpay-Environment` header names (`test` or `live`, default `test`). Only
 * the test environment has a faucet.
 */
export function createAdminApp(
  environments: AdminEnvironments,
  token: string,
  faucet: UsdgFaucet | null,
): Express {
  const service = environments.test;
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(requireAdminToken(token));
  app.use(express.json({ limit: "16kb", strict: true, type: () => true }));
  // Both environments' fee reserves, for monitoring (every environment in one scrape).
  app.get("/metrics", (_request: Request, response: Response) => {
    response
      .type("text/plain; version=0.0.4")
      .send(reserveMetricsText(environments, environments.test.clock()));
  });
  const testRoutes = adminRoutes(environments.test, faucet);
  const liveRoutes = environments.live === null ? null : adminRoutes(environments.live, null);
  app.use("/admin", (request: Request, response: Response, next: NextFunction) => {
    const environment = request.get(ADMIN_ENVIRONMENT_HEADER) ?? "test";
    if (environment === "test") return testRoutes(request, response, next);
    if (environment !== "live") {
      return next(new AdminError("invalid_request", `${ADMIN_ENVIRONMENT_HEADER}: test or live`));
    }
    if (liveRoutes === null) {
      return next(
        new AdminError(
          "not_allowed",
          "this service has no live environment (set LIVE_RPC_URL and the LIVE_ settings)",
        ),
      );
    }
    return liveRoutes(request, response, next);
  });
  app.use((_request: Request, _response: Response, next: NextFunction) => {
    next(new AdminError("not_found", "no such admin route"));
  });
  app.use((error: unknown, _request: Request, response: Response, _next: NextFunction) => {
    const known = error instanceof AdminError ? error : fromParser(error);
    if (known !== null) {
      response.status(known.status).json({ error: { code: known.code, message: known.message } });
      return;
    }
    service.logger.error({ admin: true, err: describeUnexpected(error) }, "admin request failed");
    if (response.headersSent) return;
    response.status(500).json({ error: { code: "internal_error", message: "an unexpected error occurred" } });
  });
  return app;
}

function fromParser(error: unknown): AdminError | null {
  const parsed = parserErrorOf(error);
  return parsed === null ? null : new AdminError("invalid_request", parsed.message);
}

/** Compares digests, so the comparison takes the same time whatever the token's length or content. */
function requireAdminToken(token: string) {
  const expected = digest(token);
  return (request: Request, response: Response, next: NextFunction) => {
    const match = /^Bearer (\S+)$/.exec(request.get("authorization") ?? "");
    if (match === null || !timingSafeEqual(digest(match[1] as string), expected)) {
      response.status(401).json({ error: { code: "unauthorized", message: "missing or wrong admin token" } });
      return;
    }
    next();
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
