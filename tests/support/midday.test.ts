import { describe, expect, it } from "vitest";
import { secondsToMidday, startAtMidday } from "./midday";

const DAY = 86_400n;
const NOON = 43_200n;

describe("secondsToMidday", () => {
  it.each([
    ["one second before midnight", 20_000n * DAY + DAY - 1n, NOON + 1n],
    ["midnight", 20_000n * DAY, NOON],
    ["just after noon", 20_000n * DAY + NOON + 1n, DAY - 1n],
    ["noon", 20_000n * DAY + NOON, 0n],
  ])("Given a clock at %s, Then it moves forward to the next 12:00 UTC", (_, at, expected) => {
    expect(secondsToMidday(at)).toBe(expected);
    expect((at + secondsToMidday(at)) % DAY).toBe(NOON);
  });
});

describe("startAtMidday", () => {
  it("Given a chain at 23:59:59 UTC, When a world takes it, Then its clock stands at the next noon, never earlier", async () => {
    let unixTimestamp = 20_000n * DAY + DAY - 1n;
    const warps: bigint[] = [];
    const clock = {
      clock: async () => ({ slot: 1n, unixTimestamp }),
      warpTime: async (seconds: number | bigint) => {
        warps.push(BigInt(seconds));
        unixTimestamp += BigInt(seconds);
        return { slot: 1n, unixTimestamp };
      },
    };
    const after = await startAtMidday(clock);
    expect(after.unixTimestamp).toBe(20_001n * DAY + NOON);
    expect(warps).toEqual([NOON + 1n]);
  });
});
