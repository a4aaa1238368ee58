/**
 * The one HTTP server's first step: which environment a request belongs to, by its API key's
 * prefix or, without an `Authorization` header, its dashboard session cookie's (`sess_live_`).
 * `svc_live_` keys and live sessions go to the live environment's app when it is configured; everything else
 * (test keys, missing or malformed keys, `/v1/openapi.json`) goes to the test environment's app,
 * which answers as it always has: 401 for a bad key, 403 `live_mode_unavailable` for a live key when
 * there is no live environment. Each app reads and writes only its own database and chain, so a
 * key can never reach the other environment's rows.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Express } from "express";
import { sessionCookieOf } from "./dashboard-auth/secret-tokens";

const LIVE_BEARER = /^Bearer svc_live_/;

/** Whether the request's credential belongs to the live environment (an Authorization header wins). */
export function isLiveRequest(headers: IncomingMessage["headers"]): boolean {
  if (headers.authorization !== undefined) return LIVE_BEARER.test(headers.authorization);
  return sessionCookieOf(headers.cookie)?.startsWith("sess_live_") ?? false;
}

export function frontRouter(apps: { readonly test: Express; readonly live: Express | null }) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const live = apps.live !== null && isLiveRequest(request.headers);
    (live ? (apps.live as Express) : apps.test)(request, response);
  };
}
