/**
 * Failed authentications per client address: a fixed one-minute window counting the `401`s an
 * address earned; once it holds `limitPerMinute` of them, every request from that address is
 * refused with `429 rate_limited` and `Retry-After` BEFORE its key is looked up, until the window
 * ends. Without it a stream of made-up keys costs one database query each (an unknown key is never
 * cached: it must not fill memory), and the per-key limiter cannot help because there is no key.
 * The address is Express's `request.ip` (the socket's peer unless `trust proxy` is set), so behind
 * a proxy every client shares one budget. Counted like the per-key limit
 * (coordination/window-store.ts), so the budget is one across API processes; on PostgreSQL the
 * check is one primary-key read, still far cheaper than a key lookup.
 */

import type { Database } from "@cpay/ledger/database";
import { secondsLeft } from "../coordination/rate-window";
import { windowStoreFor } from "../coordination/window-store";
import { ApiError } from "./api-error";

export interface AuthFailureLimiter {
  /** Throws `429 rate_limited` when `address` has spent its failures for this window. */
  check(address: string): Promise<void>;
  /** Counts one failed authentication of `address`. */
  fail(address: string): Promise<void>;
}

export function createAuthFailureLimiter(
  db: Database,
  limitPerMinute: number,
  now: () => number = Date.now,
): AuthFailureLimiter {
  const keyOf = (address: string) => `auth:${address}`;
  const windows = windowStoreFor(db);
  return {
    async check(address) {
      const at = now();
      const window = await windows.current(keyOf(address), at);
      if (window === null || window.count < limitPerMinute) return;
      const retryAfter = secondsLeft(window.start, at);
      throw new ApiError(
        "rate_limited",
        `more than ${limitPerMinute} failed authentications in a minute from this address; retry in ${retryAfter} s`,
        undefined,
        { "Retry-After": String(retryAfter) },
      );
    },
    async fail(address) {
      await windows.count(keyOf(address), now());
    },
  };
}
