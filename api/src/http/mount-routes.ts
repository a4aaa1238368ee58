/**
 * Mounts one handler per route of the shared route table (`API_ROUTES`): authenticate (an API key,
 * or a dashboard session's cookie with its CSRF header: authenticate-request.ts; a failing
 * credential counts against the client address's failed-authentication limit) -> rate limit (per
 * key or session) -> audience check -> validate params, query and body with the route's contracts
 * -> idempotency (POST) -> the use case (spending the fee reserve for the caller's owner) -> the
 * response, checked against its contract when `checkResponses` is on (tests). A handler is a thin
 * function of already-validated input. `public` routes (the sign-in steps) take no credential: a
 * browser may call them only from the dashboard's pages, they are rate limited per client address,
 * and each refused sign-in or enrollment counts as a failed authentication of that address.
 */
import { API_ROUTES, type ApiErrorCode, type ApiRouteId, type RouteContract } from "@cpay/sdk/api";
import type { Express, Request, Response } from "express";
import type { z } from "zod";
import { ApiError } from "../core/api-error";
import type { IdempotencyClaim } from "../core/idempotency-claim";
import type { ServiceContext } from "../core/service-context";
import { dashboardSite } from "../dashboard-auth/dashboard-site";
import { withReserveSpend } from "../reserve/reserve-scope";
import type { AuthFailureLimiter } from "./auth-failure-limit";
import type { Caller } from "./authenticate";
import { authenticateRequest } from "./authenticate-request";
import { refuseCrossSite } from "./cross-site";
import { sendError } from "./error-handler";
import { checkIdempotencyKey, runIdempotently } from "./idempotency";
import { requestFingerprint } from "./idempotency-fingerprint";
import type { RateLimiter } from "./rate-limit";
import { requestIdOf } from "./request-id";
import { countRequest } from "./usage-stamps";

type Route<R extends ApiRouteId> = (typeof API_ROUTES)[R];
type Parsed<R extends ApiRouteId, K extends string> =
  Route<R> extends { [P in K]: infer S } ? (S extends z.ZodType ? z.output<S> : undefined) : undefined;

export interface HandlerInput<R extends ApiRouteId> {
  readonly service: ServiceContext;
  /** Null only on `public` routes. */
  readonly caller: Route<R>["audience"] extends "public" ? null : Caller;
  readonly params: Parsed<R, "params">;
  readonly query: Parsed<R, "query">;
  readonly body: Parsed<R, "body">;
  /** Only for POST routes called with an `Idempotency-Key`. */
  readonly idempotency: IdempotencyClaim | null;
  readonly request: Request;
  /** For what a handler sets besides its body (the session cookie). */
  readonly response: Response;
}

export type Handler<R extends ApiRouteId> = (
  input: HandlerInput<R>,
) => Promise<z.input<Route<R>["response"]["schema"]>>;

export type Handlers = { readonly [R in ApiRouteId]: Handler<R> };

export function mountRoutes(
  app: Express,
  options: {
    readonly service: ServiceContext;
    readonly handlers: Handlers;
    readonly rateLimiter: RateLimiter;
    readonly authFailureLimiter: AuthFailureLimiter;
    readonly checkResponses: boolean;
  },
): void {
  for (const [id, route] of Object.entries(API_ROUTES) as [ApiRouteId, RouteContract][]) {
    const handler = options.handlers[id] as Handler<ApiRouteId>;
    app[route.method](route.path, async (request: Request, response: Response) => {
      if (route.audience === "public") {
        await servePublic(options, route, handler, request, response);
        return;
      }
      const caller = await authenticateLimited(options, request);
      response.locals.accountId = caller.account.id;
      if (caller.session !== null) response.setHeader("Cache-Control", "no-store");
      // A session has its own budget, keyed by its id (a key's by the key's).
      await options.rateLimiter.take(caller.session?.row.id ?? (caller.apiKey?.id as string), response);
      if (route.audience === "session" && caller.session === null) {
        throw new ApiError(
          "session_required",
          "this endpoint is for a signed-in dashboard session; an API key cannot use it",
        );
      }
      if (route.audience === "owner" && caller.account.type === "agent") {
        throw new ApiError(
          "agent_key_not_allowed",
          "an agent's API key cannot use this endpoint; use its owner's key",
        );
      }
      if (route.audience === "agent" && (caller.account.type !== "agent" || caller.apiKey === null)) {
        throw new ApiError("agent_key_required", "only an agent's own API key can use this endpoint");
      }
      const params = parsePathIds(route.params, request.params);
      const query = parse(route.query, request.query, "query");
      const body =
        route.body === undefined
          ? undefined
          : parse(route.body, request.body ?? {}, "body", POLICY_BODIES[id]);
      if (route.body === undefined && request.body !== undefined && hasContent(request.body)) {
        throw new ApiError("invalid_request", "this endpoint takes no request body", "body");
      }
      const run = async (idempotency: IdempotencyClaim | null) => {
        // Whatever the fee reserve pays for this request counts to the caller's owner (reserve/).
        const result = await withReserveSpend(options.service, reserveAccountOf(caller), () =>
          handler({
            service: options.service,
            caller,
            params,
            query,
            body,
            idempotency,
            request,
            response,
          } as HandlerInput<ApiRouteId>),
        );
        const checked = options.checkResponses ? route.response.schema.parse(result) : result;
        return { status: route.response.status, body: checked };
      };
      const key =
        route.method === "post" && route.readOnly !== true
          ? checkIdempotencyKey(request.get("idempotency-key"))
          : undefined;
      if (key === undefined) {
        const answer = await run(null);
        countSuccess(options.service, caller, answer.status);
        response.status(answer.status).json(answer.body);
        return;
      }
      const fingerprinted = { method: route.method, route: id, params, body: request.body ?? null };
      const answer = await runIdempotently(
        options.service,
        {
          accountId: caller.account.id,
          key,
          fingerprint: requestFingerprint(options.service.config.masterKey, fingerprinted),
          earlierFingerprints: options.service.config.previousMasterKeys.map((previous) =>
            requestFingerprint(previous, fingerprinted),
          ),
          ...(route.shownOnce === undefined ? {} : { redact: withoutSecret(route.shownOnce) }),
        },
        run,
      );
      if (answer.replayed) response.setHeader("Idempotent-Replayed", "true");
      const replayedError = (answer.body as { error?: Record<string, unknown> } | null)?.error;
      if (replayedError !== undefined) {
        response
          .status(answer.status)
          .json({ error: { ...replayedError, request_id: requestIdOf(response) } });
        return;
      }
      countSuccess(options.service, caller, answer.status);
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
  const body = route.body === undefined ? undefined : parse(route.body, request.body ?? {}, "body");
  const query = parse(route.query, request.query, "query");
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

function clientAddress(request: Request): string {
  return request.ip ?? request.socket.remoteAddress ?? "unknown";
}

/**
 * The answer as it is stored for replays: the secret shown once is replaced by `null` and
 * `secret_already_delivered: true` (the route's response contract admits both). An answer without
 * the secret (an error, a service-custody agent's `null`) is stored as it is.
 */
function withoutSecret(field: string) {
  return (body: unknown): unknown => {
    if (body === null || typeof body !== "object") return body;
    const value = (body as Record<string, unknown>)[field];
    if (value === undefined || value === null) return body;
    return { ...(body as Record<string, unknown>), [field]: null, secret_already_delivered: true };
  };
}

/**
 * `authenticateRequest`; a failing credential's `401` counts against the client address's
 * failed-authentication budget, and once that is spent it is answered `429` instead. A valid
 * credential is never refused by that budget (auth-failure-limit.ts).
 */
async function authenticateLimited(
  options: { readonly service: ServiceContext; readonly authFailureLimiter: AuthFailureLimiter },
  request: Request,
): Promise<Caller> {
  try {
    return await authenticateRequest(options.service, request);
  } catch (error) {
    if (error instanceof ApiError && error.code === "unauthorized")
      throw await options.authFailureLimiter.refusalOf(clientAddress(request), error);
    throw error;
  }
}

/**
 * Counts a request toward its API key's usage (`request_count`, `last_used_at`: usage-stamps.ts)
 * when the service carried it out: a 2xx answer, an Idempotency-Key replay of one included. A
 * refusal of any kind (authentication, rate limit, audience, validation, the use case) counts
 * nothing, and a session's requests count toward no key.
 */
function countSuccess(service: ServiceContext, caller: Caller, status: number): void {
  if (caller.apiKey !== null && status >= 200 && status < 300) countRequest(service.db, caller.apiKey.id);
}

/** The account whose reserve budget a caller spends: an agent's owner, else the caller's own. */
function reserveAccountOf(caller: Caller): string {
  return caller.account.type === "agent"
    ? (caller.account.ownerAccountId ?? caller.account.id)
    : caller.account.id;
}

function hasContent(body: unknown): boolean {
  return body !== null && typeof body === "object" ? Object.keys(body).length > 0 : body !== undefined;
}

/**
 * Bodies that are (or contain, under the given key) a spend policy: a bad policy field there is the
 * spec's `400 invalid_policy`, not `invalid_request`.
 */
const POLICY_BODIES: Partial<Record<ApiRouteId, string>> = {
  createAgent: "spend_policy",
  updateSpendPolicy: "",
};

/**
 * The not-found answer of each path id: a path parameter is only ever an id the service issued, so
 * one of the wrong shape (other prefix, length or characters) names nothing, and is answered
 * exactly as a well-formed id that names nothing (spec 7: unknown ids are `404`), never `400`.
 */
const NOT_FOUND_BY_PATH_ID: Readonly<Record<string, { code: ApiErrorCode; message: string }>> = {
  transfer_id: { code: "transfer_not_found", message: "no transfer with this id for this account" },
  account_id: { code: "agent_not_found", message: "no agent with this id" },
  transaction_id: { code: "transaction_not_found", message: "no pending transaction with this id" },
  webhook_id: { code: "webhook_not_found", message: "no webhook with this id" },
  event_id: { code: "event_not_found", message: "no event with this id for this subscription" },
  key_id: { code: "key_not_found", message: "no API key with this id for this account" },
  passkey_id: { code: "passkey_not_found", message: "no live passkey with this id for this account" },
};

/** The route's path ids, or the not-found refusal of the first one of the wrong shape. */
function parsePathIds(schema: z.ZodType | undefined, value: unknown): unknown {
  if (schema === undefined) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const name = String(result.error.issues[0]?.path[0] ?? "");
  const notFound = NOT_FOUND_BY_PATH_ID[name];
  if (notFound === undefined) return parse(schema, value, "path");
  // The malformed text is not quoted back: it was never an id.
  throw new ApiError(notFound.code, notFound.message, name);
}

/** Validates one part of the request; the first problem becomes `400 invalid_request` naming it. */
function parse(
  schema: z.ZodType | undefined,
  value: unknown,
  where: "path" | "query" | "body",
  policyKey?: string,
): unknown {
  if (schema === undefined) {
    if (where === "query" && hasContent(value)) {
      throw new ApiError(
        "invalid_request",
        "this endpoint takes no query parameters",
        Object.keys(value as object)[0],
      );
    }
    return undefined;
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const unknownKey = issue?.code === "unrecognized_keys" ? (issue.keys[0] as string | undefined) : undefined;
  const param =
    unknownKey !== undefined
      ? [...path, unknownKey].join(".")
      : path.length > 0
        ? path.join(".")
        : where === "body"
          ? "body"
          : where;
  const message =
    unknownKey !== undefined
      ? `unknown ${where === "body" ? "field" : "parameter"} "${param}"`
      : `${param}: ${issue?.message ?? "invalid"}`;
  const isPolicy =
    policyKey !== undefined &&
    (policyKey === "" ? path.length > 0 || unknownKey !== undefined : path[0] === policyKey);
  throw new ApiError(isPolicy ? "invalid_policy" : "invalid_request", message, param);
}
