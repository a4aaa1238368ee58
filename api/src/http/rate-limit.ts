/**
 * Per-key rate limits (DESIGN section 7): a fixed one-minute window per API key, with the IETF
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers on every authenticated
 * response, and `429 rate_limited` with `Retry-After` once the window is spent. Counted in process
 * memory: with several API processes (PostgreSQL scale-out) each enforces its own window, so the
 * effective limit is per process — written down in api/README.md.
 */
import type { Response } from "express";
import { ApiError } from "./api-error";

export interface RateLimiter {
  /** Counts one request of `keyId`; sets the headers; throws 429 when over the limit. */
  take(keyId: string, response: Response): void;
}

export function createRateLimiter(limitPerMinute: number, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();
  return {
    take(keyId, response) {
      const at = now();
      if (at - lastSweep > 60_000) {
        for (const [id, window] of windows) if (at - window.start >= 60_000) windows.delete(id);
        lastSweep = at;
      }
      let window = windows.get(keyId);
      if (window === undefined || at - window.start >= 60_000) {
        window = { start: at, count: 0 };
        windows.set(keyId, window);
      }
      window.count += 1;
      const resetSeconds = Math.max(1, Math.ceil((window.start + 60_000 - at) / 1000));
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
