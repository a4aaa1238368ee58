/**
 * Failed authentications per client address: a fixed one-minute window counting the `401`s an
 * address earned; once it holds `limitPerMinute` of them, every request from that address is
 * refused with `429 rate_limited` and `Retry-After` BEFORE its key is looked up, until the window
 * ends. Without it a stream of made-up keys costs one database query each (an unknown key is never
 * cached: it must not fill memory), and the per-key limiter cannot help because there is no key.
 * The address is Express's `request.ip` (the socket's peer unless `trust proxy` is set), so behind
 * a proxy every client shares one budget. Counted in process memory, like the per-key limit.
 */
import { ApiError } from "./api-error";

export interface AuthFailureLimiter {
  /** Throws `429 rate_limited` when `address` has spent its failures for this window. */
  check(address: string): void;
  /** Counts one failed authentication of `address`. */
  fail(address: string): void;
}

const WINDOW_MS = 60_000;

export function createAuthFailureLimiter(
  limitPerMinute: number,
  now: () => number = Date.now,
): AuthFailureLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();
  const current = (address: string, at: number) => {
    const window = windows.get(address);
    return window === undefined || at - window.start >= WINDOW_MS ? null : window;
  };
  return {
    check(address) {
      const at = now();
      const window = current(address, at);
      if (window === null || window.count < limitPerMinute) return;
      const retryAfter = Math.max(1, Math.ceil((window.start + WINDOW_MS - at) / 1000));
      throw new ApiError(
        "rate_limited",
        `more than ${limitPerMinute} failed authentications in a minute from this address; retry in ${retryAfter} s`,
        undefined,
        { "Retry-After": String(retryAfter) },
      );
    },
    fail(address) {
      const at = now();
      if (at - lastSweep > WINDOW_MS) {
        for (const [key, window] of windows) if (at - window.start >= WINDOW_MS) windows.delete(key);
        lastSweep = at;
      }
      const window = current(address, at) ?? { start: at, count: 0 };
      window.count += 1;
      windows.set(address, window);
    },
  };
}
