/**
 * The one HTTP server's first step: which environment a request belongs to. In order:
 * 1. an `Authorization` header: its API key's prefix (`svc_live_`), whatever else comes with it;
 * 2. else the `X-Cpay-Environment` header (`live`): the dashboard names its environment with it,
 *    and its enrollment and sign-in steps have no credential to route by;
 * 3. else the dashboard session cookie's prefix (`sess_live_`), under either of its names.
 * Live requests go to the live environment's app when it is configured; everything else (test keys,
 * missing or malformed keys, a header value other than `live`, `/v1/openapi.json`) goes to the test
 * environment's app, which answers as it always has: 401 for a bad key, 403 `live_mode_unavailable`
 * for a live key or a `live` header when there is no live environment, 400 for a bad header value.
 * Each app checks that the header agrees with the key or session it authenticates
 * (environment-header.ts). Each app reads and writes only its own database and chain, so a key
 * can never reach the other environment's rows.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ENVIRONMENT_HEADER } from "@cpay/sdk/api";
import type { Express } from "express";
import { cookieOf, SESSION_COOKIE } from "../dashboard-auth/secret-tokens";

const LIVE_BEARER = /^Bearer svc_live_/;

/** Whether the request belongs to the live environment (the order above). */
export function isLiveRequest(headers: IncomingMessage["headers"]): boolean {
  if (headers.authorization !== undefined) return LIVE_BEARER.test(headers.authorization);
  const named = headers[ENVIRONMENT_HEADER];
  if (named !== undefined) return named === "live";
  // Either name (`__Host-` under an https dashboard): this only routes; the app reads its own name.
  const session =
    cookieOf(headers.cookie, `__Host-${SESSION_COOKIE}`) ?? cookieOf(headers.cookie, SESSION_COOKIE);
  return session?.startsWith("sess_live_") ?? false;
}

export function frontRouter(apps: { readonly test: Express; readonly live: Express | null }) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const live = apps.live !== null && isLiveRequest(request.headers);
    (live ? (apps.live as Express) : apps.test)(request, response);
  };
}
