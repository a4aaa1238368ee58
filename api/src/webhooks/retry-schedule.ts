/**
 * When a webhook delivery is tried again (spec 6.4, DESIGN section 8): exponential backoff with
 * jitter, until 24 hours after the event, then the delivery is `failed`. Attempt n (1-based: the
 * first retry is attempt 2) waits `min(BASE * 2^(n-2), CAP)`, scaled into [1/2, 1] of that by the
 * jitter ("equal jitter": receivers coming back from an outage are not hit by every sender at once,
 * and no wait collapses to zero). Pure: the clock and the randomness are parameters, so tests
 * drive 24 hours without waiting.
 */

export const RETRY_BASE_MS = 10_000;
export const RETRY_CAP_MS = 60 * 60_000;
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;

/**
 * The time of the attempt after `failedAttempt` failed at `now` (ms since epoch), or null when it
 * would fall outside the 24 h window that started at `eventCreatedAt`. `random` returns [0, 1).
 */
export function nextAttemptAt(input: {
  readonly eventCreatedAt: number;
  readonly failedAttempt: number;
  readonly now: number;
  readonly random?: () => number;
}): number | null {
  if (!Number.isInteger(input.failedAttempt) || input.failedAttempt < 1) {
    throw new RangeError(`failedAttempt is a 1-based attempt number, got ${input.failedAttempt}`);
  }
  const exponent = Math.min(input.failedAttempt - 1, 30);
  const ceiling = Math.min(RETRY_BASE_MS * 2 ** exponent, RETRY_CAP_MS);
  const jitter = Math.min(Math.max((input.random ?? Math.random)(), 0), 1);
  const at = input.now + Math.round(ceiling * (0.5 + jitter / 2));
  return at > input.eventCreatedAt + RETRY_WINDOW_MS ? null : at;
}
