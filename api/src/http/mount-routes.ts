/**
 * Mounts one handler per route of the shared route table (`API_ROUTES`): authenticate (an API key,
 * or a dashboard session's cookie with its CSRF header: authenticate-request.ts; a failing
 * credential counts against the client address's failed-authentication limit) -> the route's work,
 * which the MCP door shares (serve-route.ts: rate limit, audience, validation, idempotency, the use
 * case) -> the response, its replay marked `Idempotent-Replayed`. A handler is a thin
 * function of already-validated input. `public` routes (the sign-in steps) take no credential: a
 * browser may call them only from the dashboard's pages, they are rate limited per client address,
 * and each refused sign-in or enrollment counts as a failed authentication of that address.
 */
import { API_ROUTES, type ApiErrorCode, type ApiRouteId, type RouteContract } from "@cpay/sdk/api";
import type { Express, Request, Response } from "express";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { dashboardSite } from "../dashboard-auth/dashboard-site";
import type { AuthFailureLimiter } from "./auth-failure-limit";
import { authenticateRequest } from "./authenticate-request";
import { refuseCrossSite } from "./cross-site";
import { sendError } from "./error-handler";
import { authenticateLimited, clientAddress } from "./limited-authentication";
import type { RateLimiter } from "./rate-limit";
import { requestIdOf } from "./request-id";
import {
  type Handler,
  type HandlerInput,
  parseRequestPart,
  type RouteServing,
  replayedErrorOf,
  serveRoute,
} from "./serve-route";

export type { Handler, HandlerInput, Handlers } from "./serve-route";

export function mountRoutes(
  app: Express,
  options: RouteServing & { readonly authFailureLimiter: AuthFailureLimiter },
): void {
  for (const [id, route] of Object.entries(API_ROUTES) as [ApiRouteId, RouteContract][]) {
    const handler = options.handlers[id] as Handler<ApiRouteId>;
    app[route.method](route.path, async (request: Request, response: Response) => {
      if (route.audience === "public") {
        await servePublic(options, route, handler, request, response);
        return;
      }
      const caller = await authenticateLimited(options.authFailureLimiter, request, () =>
        authenticateRequest(options.service, request),
      );
      response.locals.accountId = caller.account.id;
      if (caller.session !== null) response.setHeader("Cache-Control", "no-store");
      const answer = await serveRoute(options, id, {
        caller,
        params: request.params,
        query: request.query,
        body: request.body,
        idempotencyKey: request.get("idempotency-key"),
        request,
        response,
      });
      if (answer.replayed) response.setHeader("Idempotent-Replayed", "true");
      const replayedError = replayedErrorOf(answer);
      if (replayedError !== undefined) {
        response
          .status(answer.status)
          .json({ error: { ...replayedError, request_id: requestIdOf(response) } });
        return;
      }
      response.status(answer.status).json(answer.body);
    });
  }
  // A known path with another method is 405; anything else is 404 (both in the error envelope).
  const knownPaths = new Set(Object.values(API_ROUTES).map((route) => route.path));
  for (const path of knownPaths) {
    app.all(path, (_request: Request, response: Response) => {
      sendError(response, new ApiError("method_not_allowed", "this route does not accept that method"));
    });
  }
}

/** Refusals of a public route that count as failed authentications of the client's address. */
const FAILED_SIGN_IN: ReadonlySet<ApiErrorCode> = new Set([
  "enrollment_link_invalid",
  "passkey_not_recognized",
  "passkey_verification_failed",
]);

/**
 * A `public` route: no credential is read, and a browser's request must come from the dashboard's
 * own pages (`403 cross_site_request`). Requests count per address against the per-key limit, and
 * a refused sign-in or enrollment spends one of the address's failed authentications (past its
 * budget it is answered 429); a good one is served whatever the address earned. No Idempotency-Key
 * (there is no account to key it by) and no reserve spend (these routes touch no chain).
 */
async function servePublic(
  options: {
    readonly service: ServiceContext;
    readonly rateLimiter: RateLimiter;
    readonly authFailureLimiter: AuthFailureLimiter;
    readonly checkResponses: boolean;
  },
  route: RouteContract,
  handler: Handler<ApiRouteId>,
  request: Request,
  response: Response,
): Promise<void> {
  // A step that starts a session is a browser's, and only the dashboard's pages may make it.
  refuseCrossSite(request, dashboardSite(options.service).origin);
  const address = clientAddress(request);
  await options.rateLimiter.take(`address:${address}`, response);
  response.setHeader("Cache-Control", "no-store");
  const body =
    route.body === undefined ? undefined : parseRequestPart(route.body, request.body ?? {}, "body");
  const query = parseRequestPart(route.query, request.query, "query");
  try {
    const result = await handler({
      service: options.service,
      caller: null,
      params: undefined,
      query,
      body,
      idempotency: null,
      request,
      response,
    } as unknown as HandlerInput<ApiRouteId>);
    const checked = options.checkResponses ? route.response.schema.parse(result) : result;
    response.status(route.response.status).json(checked);
  } catch (error) {
    if (error instanceof ApiError && FAILED_SIGN_IN.has(error.code)) {
      // The answer is generic; why it was refused (the WebAuthn verifier's detail) is logged.
      options.service.logger.info(
        { request_id: requestIdOf(response), code: error.code, detail: error.detail?.slice(0, 300) },
        "sign-in or enrollment refused",
      );
      throw await options.authFailureLimiter.refusalOf(address, error);
    }
    throw error;
  }
}
