/**
 * agent_transfer, active hours on the real program: minutes of the UTC day, start inclusive, end
 * exclusive; a start after the end wraps midnight; equal start and end is all day. Each case sets
 * the cluster clock and spends one base unit, far from any limit, so the cases of one window share
 * a world without touching each other.
 */
import { describe, expect, it } from "vitest";
import { createPolicyWorld, utc } from "../support/policy-world";
import { perSuite } from "../support/shared-set-up";

type Case = readonly [label: string, at: bigint, allowed: boolean];

function describeWindow(window: string, cases: readonly Case[]) {
  describe(`agent_transfer: active hours ${window}`, () => {
    const given = perSuite(async () => {
      // Given alice/bot may only spend during `window` (UTC)
      const world = await createPolicyWorld();
      const updated = await world.updatePolicy({ active_hours: window });
      expect(updated.err, updated.logs.join("\n")).toBeNull();
      return { world };
    });

    it.each(cases)("at %s: allowed = %s", async (_, at, allowed) => {
      // When the agent spends one base unit at that UTC time
      given.world.at(at);
      const before = given.world.snapshot();
      const outcome = await given.world.transfer({ amount: 1n });
      // Then it executes inside the window and is refused, changing nothing, outside it
      if (allowed) {
        expect(outcome.err, outcome.logs.join("\n")).toBeNull();
      } else {
        expect(outcome.error).toBe("OutsideActiveHours");
        expect(outcome.code).toBe(6028);
        expect(given.world.changesSince(before, outcome)).toEqual([]);
      }
    });
  });
}

describeWindow("09:00-17:00", [
  ["08:59:59, one second before the start", utc(1, 8, 59, 59), false],
  ["09:00:00, the start (inclusive)", utc(1, 9), true],
  ["16:59:59, one second before the end", utc(1, 16, 59, 59), true],
  ["17:00:00, the end (exclusive)", utc(1, 17), false],
  ["03:00:00, in the night", utc(1, 3), false],
]);

describeWindow("22:00-06:00", [
  ["21:59:59, before the start", utc(2, 21, 59, 59), false],
  ["22:00:00, the start", utc(2, 22), true],
  ["23:59:59, before midnight", utc(2, 23, 59, 59), true],
  ["00:00:00, midnight", utc(3, 0), true],
  ["05:59:59, before the end", utc(3, 5, 59, 59), true],
  ["06:00:00, the end", utc(3, 6), false],
  ["12:00:00, midday", utc(3, 12), false],
]);

describeWindow("08:00-08:00", [
  ["07:59:59", utc(4, 7, 59, 59), true],
  ["08:00:00", utc(4, 8), true],
  ["23:59:59", utc(4, 23, 59, 59), true],
  ["00:00:00", utc(5, 0), true],
]);
