/**
 * Mounts one handler per route of the shared route table (`API_ROUTES`): authenticate -> rate
 * limit -> audience check -> validate params, query and body with the route's contracts ->
 * idempotency (POST) -> the use case (spending the fee reserve for the caller's owner) -> the response, checked against its contract when
 * `checkResponses` is on (tests). A handler is a thin function of already-validated input.
 */
import { API_ROUTES, type ApiRouteId, type RouteContract } from "@cpay/sdk/api";
import type { Express, Request, Response } from "express";
import type { z } from "zod";
import { withReserveSpend } from "../reserve/reserve-scope";
import type { ServiceContext } from "../service-context";
import { ApiError } from "./api-error";
import { authenticate, type Caller } from "./authenticate";
import { sendError } from "./error-handler";
import {
  checkIdempotencyKey,
  type IdempotencyClaim,
  requestFingerprint,
  runIdempotently,
} from "./idempotency";
import type { RateLimiter } from "./rate-limit";
import { requestIdOf } from "./request-id";

type Route<R extends ApiRouteId> = (typeof API_ROUTES)[R];
type Parsed<R extends ApiRouteId, K extends string> =
  Route<R> extends { [P in K]: infer S } ? (S extends z.ZodType ? z.output<S> : undefined) : undefined;

export interface HandlerInput<R extends ApiRouteId> {
  readonly service: ServiceContext;
  readonly caller: Caller;
  readonly params: Parsed<R, "params">;
  readonly query: Parsed<R, "query">;
  readonly body: Parsed<R, "body">;
  /** Only for POST routes called with an `Idempotency-Key`. */
  readonly idempotency: IdempotencyClaim | null;
  readonly request: Request;
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
    readonly checkResponses: boolean;
  },
): void {
  for (const [id, route] of Object.entries(API_ROUTES) as [ApiRouteId, RouteContract][]) {
    const handler = options.handlers[id] as Handler<ApiRouteId>;
    app[route.method](route.path, async (request: Request, response: Response) => {
      const caller = await authenticate(options.service, request.get("authorization"));
      response.locals.accountId = caller.account.id;
      options.rateLimiter.take(caller.apiKey.id, response);
      if (route.audience === "owner" && caller.account.type === "agent") {
        throw new ApiError(
          "agent_key_not_allowed",
          "an agent's API key cannot use this endpoint; use its owner's key",
        );
      }
      if (route.audience === "agent" && caller.account.type !== "agent") {
        throw new ApiError("agent_key_required", "only an agent's own API key can use this endpoint");
      }
      const params = parse(route.params, request.params, "path");
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
          } as HandlerInput<ApiRouteId>),
        );
        const checked = options.checkResponses ? route.response.schema.parse(result) : result;
        return { status: route.response.status, body: checked };
      };
      const key = route.method === "post" ? checkIdempotencyKey(request.get("idempotency-key")) : undefined;
      if (key === undefined) {
        const answer = await run(null);
        response.status(answer.status).json(answer.body);
        return;
      }
      const answer = await runIdempotently(
        options.service,
        {
          accountId: caller.account.id,
          key,
          fingerprint: requestFingerprint(route.method, request.path, request.body ?? null),
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
