import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextAttemptAt, RETRY_BASE_MS, RETRY_CAP_MS, RETRY_WINDOW_MS } from "./retry-schedule";

const T0 = Date.UTC(2026, 10, 21);

describe("webhook retry schedule", () => {
  it("backs off exponentially from 10 s, capped at 1 h, within [1/2, 1] of each step", () => {
    const waits = [1, 2, 3, 4, 5, 10, 20].map((failedAttempt) => ({
      low: (nextAttemptAt({ eventCreatedAt: T0, failedAttempt, now: T0, random: () => 0 }) as number) - T0,
      high: (nextAttemptAt({ eventCreatedAt: T0, failedAttempt, now: T0, random: () => 1 }) as number) - T0,
    }));
    expect(waits.map((w) => w.high)).toEqual(
      [1, 2, 4, 8, 16, 512, 512].map((factor) => Math.min(RETRY_BASE_MS * factor, RETRY_CAP_MS)),
    );
    for (const wait of waits) expect(wait.low).toBe(Math.round(wait.high / 2));
  });

  it("never schedules past 24 h after the event, and gives up there", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: RETRY_WINDOW_MS + 3_600_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (attempt, elapsed, r) => {
          const at = nextAttemptAt({
            eventCreatedAt: T0,
            failedAttempt: attempt,
            now: T0 + elapsed,
            random: () => r,
          });
          if (at !== null) {
            expect(at).toBeGreaterThan(T0 + elapsed);
            expect(at).toBeLessThanOrEqual(T0 + RETRY_WINDOW_MS);
          }
        },
      ),
    );
  });

  it("driven by a controllable clock, a receiver that always fails is retried until 24 h, then not", () => {
    let now = T0;
    let attempt = 1;
    const attempts = [now];
    for (;;) {
      const next = nextAttemptAt({ eventCreatedAt: T0, failedAttempt: attempt, now, random: () => 0.5 });
      if (next === null) break;
      now = next;
      attempt += 1;
      attempts.push(now);
    }
    expect(attempts.length).toBeGreaterThan(20);
    expect(attempts.at(-1)).toBeLessThanOrEqual(T0 + RETRY_WINDOW_MS);
    expect(attempts.at(-1)).toBeGreaterThan(T0 + RETRY_WINDOW_MS - RETRY_CAP_MS);
  });

  it("refuses a non-positive attempt number", () => {
    expect(() => nextAttemptAt({ eventCreatedAt: T0, failedAttempt: 0, now: T0 })).toThrow(RangeError);
  });
});
