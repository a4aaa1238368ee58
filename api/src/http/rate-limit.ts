/**
 * Per-key rate limits (DESIGN section 7): a fixed one-minute window per API key, with the IETF
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers on every authenticated
 * response, and `429 rate_limited` with `Retry-After` once the window is spent. Counted where every
 * API process sharing the database sees one budget (coordination/window-store.ts).
 */

import type { Database } from "@cpay/ledger/database";
import type { Response } from "express";
import { secondsLeft, WINDOW_MS } from "../coordination/rate-window";
import { windowStoreFor } from "../coordination/window-store";
import { ApiError } from "../core/api-error";

export interface RateLimiter {
  /** Counts one request of `keyId`; sets the headers; throws 429 when over the limit. */
  take(keyId: string, response: Response): Promise<void>;
}

/**
 * A limiter counting under `namespace:<key id>` (namespaces keep the API keys' budgets apart from
 * the relay's); `now` is for tests.
 */
export function createRateLimiter(
  db: Database,
  limitPerMinute: number,
  options: { readonly namespace?: string; readonly now?: () => number } = {},
): RateLimiter {
  const now = options.now ?? Date.now;
  const namespace = options.namespace ?? "key";
  const windows = windowStoreFor(db);
  let lastSweep = now();
  return {
    async take(keyId, response) {
      const at = now();
      if (at - lastSweep > WINDOW_MS) {
        lastSweep = at;
        // Any process may sweep; a failed sweep only leaves ended rows for the next one.
        void windows.sweep(at).catch(() => {});
      }
      const window = await windows.count(`${namespace}:${keyId}`, at);
      const resetSeconds = secondsLeft(window.start, at);
      response.setHeader("RateLimit-Limit", String(limitPerMinute));
      response.setHeader("RateLimit-Remaining", String(Math.max(0, limitPerMinute - window.count)));
      response.setHeader("RateLimit-Reset", String(resetSeconds));
      if (window.count > limitPerMinute) {
        throw new ApiError(
          "rate_limited",
          `more than ${limitPerMinute} requests in a minute for this key; retry in ${resetSeconds} s`,
          undefined,
          { "Retry-After": String(resetSeconds) },
        );
      }
    },
  };
}
