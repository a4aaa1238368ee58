/**
 * The typed `/v1` client: one `call(routeId, ...)` driven by the route table, so every request and
 * response is checked against the same zod contracts the server uses. Failures throw
 * `ApiRequestError` with the service's error code, message, `param` and request id.
 */
import type { z } from "zod";
import { ZErrorBody } from "./common";
import { getWithBody } from "./get-with-body";
import { API_ROUTES, type ApiRouteId } from "./routes";

type Route<R extends ApiRouteId> = (typeof API_ROUTES)[R];
type InputOf<S> = S extends z.ZodType ? z.input<S> : never;

/** What a call needs, by route: path params, query, body (all typed by the route's contract). */
export type CallInput<R extends ApiRouteId> = (Route<R> extends { params: infer P }
  ? { params: InputOf<P> }
  : unknown) &
  (Route<R> extends { query: infer Q } ? { query?: InputOf<Q> } : unknown) &
  (Route<R> extends { body: infer B } ? { body?: InputOf<B> } : unknown) & {
    readonly idempotencyKey?: string;
    readonly headers?: Record<string, string>;
  };

export type CallOutput<R extends ApiRouteId> = z.output<Route<R>["response"]["schema"]>;

export interface ApiClientOptions {
  /** e.g. `http://127.0.0.1:3000` (no trailing `/v1`). */
  readonly baseUrl: string;
  /**
   * The API key sent as `Authorization: Bearer`. Absent: no Authorization header, for the public
   * sign-in routes and for a dashboard page, whose browser sends the session cookie itself.
   */
  readonly apiKey?: string;
  /** Headers sent with every call, e.g. a dashboard session's `X-CSRF-Token`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Transport for every call but a GET with a body (fetch cannot send one: see get-with-body.ts). */
  readonly fetch?: typeof fetch;
}

/** A non-2xx answer from the service. */
export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | undefined,
    readonly requestId: string | undefined,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

export interface ApiClient {
  call<R extends ApiRouteId>(route: R, input?: CallInput<R>): Promise<CallOutput<R>>;
}

/** Creates a client for one API key (or, without one, for a dashboard session's cookie). */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? fetch;
  return {
    async call(routeId, input) {
      const route = API_ROUTES[routeId];
      const given = (input ?? {}) as {
        params?: Record<string, string>;
        query?: Record<string, unknown>;
        body?: unknown;
        idempotencyKey?: string;
        headers?: Record<string, string>;
      };
      const path = route.path.replace(/:([a-z_]+)/g, (_, name: string) => {
        const value = given.params?.[name];
        if (value === undefined) throw new TypeError(`missing path parameter ${name}`);
        return encodeURIComponent(value);
      });
      const url = new URL(path, options.baseUrl);
      for (const [key, value] of Object.entries(given.query ?? {})) {
        if (value !== undefined) url.searchParams.set(key, String(value));
      }
      const headers: Record<string, string> = {
        ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
        ...options.headers,
        ...given.headers,
      };
      const sendsBody = given.body !== undefined;
      if (sendsBody) headers["content-type"] = "application/json";
      if (given.idempotencyKey !== undefined) headers["idempotency-key"] = given.idempotencyKey;
      // The one GET with a body (the balance read's decryption proof) cannot go through fetch, and
      // its proof must stay in the body: it carries the amount.
      const response =
        sendsBody && route.method === "get"
          ? await getWithBody(url, headers, JSON.stringify(given.body))
          : await doFetch(url, {
              method: route.method.toUpperCase(),
              headers,
              ...(sendsBody ? { body: JSON.stringify(given.body) } : {}),
            });
      const text = await response.text();
      const json: unknown = text === "" ? null : JSON.parse(text);
      if (!response.ok) {
        const parsed = ZErrorBody.safeParse(json);
        if (!parsed.success) {
          throw new ApiRequestError(
            response.status,
            "unexpected_response",
            text.slice(0, 200),
            undefined,
            undefined,
          );
        }
        const { code, message, param, request_id } = parsed.data.error;
        throw new ApiRequestError(response.status, code, message, param, request_id);
      }
      return route.response.schema.parse(json) as CallOutput<typeof routeId>;
    },
  };
}
