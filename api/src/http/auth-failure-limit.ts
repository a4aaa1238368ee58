/**
 * Failed authentications per client address: a fixed one-minute window counting the refusals of
 * failing credentials (a missing, malformed, unknown or revoked key or session cookie; a refused
 * sign-in or enrollment) an address earned. Once it holds `limitPerMinute` of them, a further
 * failing credential from that address is answered `429 rate_limited` with `Retry-After` instead of
 * its own refusal, until the window ends — and that is all the limit does. It never refuses a
 * credential that is valid: the limit is consulted only after a credential failed, so a valid key
 * or session is served whatever its address earned. Behind a proxy every client may share one
 * address (see `TRUST_PROXY`), and one client's failures must not lock the others out.
 *
 * The cost: a made-up key from a limited address is still looked up (one indexed read, as for any
 * key) before it is refused, since nothing short of the lookup tells it from a valid one; the
 * window is not written again once spent. A request whose credential is valid reads no window at
 * all. The address is Express's `request.ip` (the socket's peer, or with `trust proxy` the client
 * the trusted proxies name). Counted like the per-key limit (coordination/window-store.ts), so the
 * budget is one across API processes.
 */

import type { Database } from "@cpay/ledger/database";
import { secondsLeft } from "../coordination/rate-window";
import { windowStoreFor } from "../coordination/window-store";
import { ApiError } from "../core/api-error";

export interface AuthFailureLimiter {
  /**
   * The answer to a failing credential from `address`: while the address is within its budget the
   * failure is counted and `refusal` (its own 401) is the answer; once the budget is spent,
   * `429 rate_limited` with `Retry-After`.
   */
  refusalOf(address: string, refusal: ApiError): Promise<ApiError>;
}

export function createAuthFailureLimiter(
  db: Database,
  limitPerMinute: number,
  now: () => number = Date.now,
): AuthFailureLimiter {
  const keyOf = (address: string) => `auth:${address}`;
  const windows = windowStoreFor(db);
  return {
    async refusalOf(address, refusal) {
      const at = now();
      const window = await windows.current(keyOf(address), at);
      if (window === null || window.count < limitPerMinute) {
        await windows.count(keyOf(address), at);
        return refusal;
      }
      const retryAfter = secondsLeft(window.start, at);
      return new ApiError(
        "rate_limited",
        `more than ${limitPerMinute} failed authentications in a minute from this address; retry in ${retryAfter} s`,
        undefined,
        { "Retry-After": String(retryAfter) },
      );
    },
  };
}
