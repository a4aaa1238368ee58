/**
 * The one HTTP server's first step: which environment a request belongs to, by its API key's
 * prefix. `svc_live_` keys go to the live environment's app when it is configured; everything else
 * (test keys, missing or malformed keys, `/v1/openapi.json`) goes to the test environment's app,
 * which answers as it always has: 401 for a bad key, 403 `live_mode_unavailable` for a live key when
 * there is no live environment. Each app reads and writes only its own database and chain, so a
 * key can never reach the other environment's rows.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Express } from "express";

const LIVE_BEARER = /^Bearer svc_live_/;

export function frontRouter(apps: { readonly test: Express; readonly live: Express | null }) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const live = apps.live !== null && LIVE_BEARER.test(request.headers.authorization ?? "");
    (live ? (apps.live as Express) : apps.test)(request, response);
  };
}
