/**
 * One `/v1` route's work once its caller is known, whichever door the request came through (the
 * `/v1` HTTP routes: mount-routes.ts; the MCP tools: mcp/): rate limit (per key or session) ->
 * audience check -> validate params, query and body with the route's contracts -> idempotency
 * (POST, with an Idempotency-Key) -> the use case (spending the fee reserve for the caller's owner)
 * -> the answer, checked against its contract when `checkResponses` is on (tests). So both doors
 * share one implementation of each rule: the same limits, idempotency store, reserve budgets,
 * refusals and error codes. A refusal is thrown as an `ApiError`; a replayed refusal is returned
 * as the stored answer (`body.error`), as the first request got it.
 */
import { API_ROUTES, type ApiErrorCode, type ApiRouteId, type RouteContract } from "@cpay/sdk/api";
import type { Request, Response } from "express";
import type { z } from "zod";
import { ApiError } from "../core/api-error";
import type { IdempotencyClaim } from "../core/idempotency-claim";
import type { ServiceContext } from "../core/service-context";
import { withReserveSpend } from "../reserve/reserve-scope";
import type { Caller } from "./authenticate";
import { checkIdempotencyKey, runIdempotently } from "./idempotency";
import { requestFingerprint } from "./idempotency-fingerprint";
import type { RateLimiter } from "./rate-limit";
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

/** What every route's work needs, whichever door calls it. */
export interface RouteServing {
  readonly service: ServiceContext;
  readonly handlers: Handlers;
  readonly rateLimiter: RateLimiter;
  readonly checkResponses: boolean;
}

/** One call of a route by a known caller: its inputs as they arrived, before validation. */
export interface RouteCall {
  readonly caller: Caller;
  readonly params: unknown;
  readonly query: unknown;
  /** The request body (undefined when none was sent). */
  readonly body: unknown;
  /** The Idempotency-Key as sent (a POST's only). */
  readonly idempotencyKey: string | undefined;
  /** The HTTP exchange carrying the call (its rate-limit headers go on `response`). */
  readonly request: Request;
  readonly response: Response;
}

export interface RouteAnswer {
  readonly status: number;
  /** The route's response, or a replayed refusal `{ error: {...} }` (see `replayedErrorOf`). */
  readonly body: unknown;
  /** An Idempotency-Key replay of an earlier request's answer. */
  readonly replayed: boolean;
}

/** Runs route `id` for `call` (see the file doc). */
export async function serveRoute(
  serving: RouteServing,
  id: ApiRouteId,
  call: RouteCall,
): Promise<RouteAnswer> {
  const route = API_ROUTES[id] as RouteContract;
  const handler = serving.handlers[id] as Handler<ApiRouteId>;
  const { caller, request, response } = call;
  // A session has its own budget, keyed by its id (a key's by the key's).
  await serving.rateLimiter.take(caller.session?.row.id ?? (caller.apiKey?.id as string), response);
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
  const params = parsePathIds(route.params, call.params);
  const query = parseRequestPart(route.query, call.query, "query");
  const body =
    route.body === undefined
      ? undefined
      : parseRequestPart(route.body, call.body ?? {}, "body", POLICY_BODIES[id]);
  if (route.body === undefined && call.body !== undefined && hasContent(call.body)) {
    throw new ApiError("invalid_request", "this endpoint takes no request body", "body");
  }
  const run = async (idempotency: IdempotencyClaim | null) => {
    // Whatever the fee reserve pays for this request counts to the caller's owner (reserve/).
    const result = await withReserveSpend(serving.service, reserveAccountOf(caller), () =>
      handler({
        service: serving.service,
        caller,
        params,
        query,
        body,
        idempotency,
        request,
        response,
      } as HandlerInput<ApiRouteId>),
    );
    const checked = serving.checkResponses ? route.response.schema.parse(result) : result;
    return { status: route.response.status, body: checked };
  };
  const key =
    route.method === "post" && route.readOnly !== true ? checkIdempotencyKey(call.idempotencyKey) : undefined;
  if (key === undefined) {
    const answer = await run(null);
    countSuccess(serving.service, caller, answer.status);
    return { ...answer, replayed: false };
  }
  const fingerprinted = { method: route.method, route: id, params, body: call.body ?? null };
  const answer = await runIdempotently(
    serving.service,
    {
      accountId: caller.account.id,
      key,
      fingerprint: requestFingerprint(serving.service.config.masterKey, fingerprinted),
      earlierFingerprints: serving.service.config.previousMasterKeys.map((previous) =>
        requestFingerprint(previous, fingerprinted),
      ),
      ...(route.shownOnce === undefined ? {} : { redact: withoutSecret(route.shownOnce) }),
    },
    run,
  );
  if (replayedErrorOf(answer) === undefined) countSuccess(serving.service, caller, answer.status);
  return answer;
}

/** The stored refusal an Idempotency-Key replay answers with, if that is what it is. */
export function replayedErrorOf(answer: RouteAnswer): Record<string, unknown> | undefined {
  return (answer.body as { error?: Record<string, unknown> } | null)?.error;
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
 * Counts a request toward its API key's usage (`request_count`, `last_used_at`: usage-stamps.ts)
 * when the service carried it out: a 2xx answer, an Idempotency-Key replay of one included. A
 * refusal of any kind (authentication, rate limit, audience, validation, the use case) counts
 * nothing, and a session's requests count toward no key.
 */
function countSuccess(service: ServiceContext, caller: Caller, status: number): void {
  if (caller.apiKey !== null && status >= 200 && status < 300) countRequest(service.db, caller.apiKey.id);
}

/** The account whose reserve budget a caller spends: an agent's owner, else the caller's own. */
export function reserveAccountOf(caller: Caller): string {
  return caller.account.type === "agent"
    ? (caller.account.ownerAccountId ?? caller.account.id)
    : caller.account.id;
}

export function hasContent(body: unknown): boolean {
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
  if (notFound === undefined) return parseRequestPart(schema, value, "path");
  // The malformed text is not quoted back: it was never an id.
  throw new ApiError(notFound.code, notFound.message, name);
}

/** Validates one part of the request; the first problem becomes `400 invalid_request` naming it. */
export function parseRequestPart(
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
