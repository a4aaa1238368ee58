/**
 * Every test chain starts at the middle of a UTC day. The program counts spend per UTC day of the
 * cluster's clock, which follows the wall clock: a suite that spends and then reads or re-checks
 * today's spend would see a new day, and fail, whenever a run straddles midnight UTC (seen: the
 * plaintext canary's budget read at 23:59). Moving the chain forward to the next 12:00 UTC gives
 * every world twelve hours before its day ends, whatever time the run starts. Forward only: a
 * cluster's clock never steps back.
 */
import type { ClockPosition, LocalnetTestClient } from "./localnet-test-client";

const SECONDS_PER_DAY = 86_400n;
const MIDDAY = 43_200n;

/** Seconds to move a clock standing at `unixTimestamp` on to the next 12:00:00 UTC (0 when there). */
export function secondsToMidday(unixTimestamp: bigint): bigint {
  const intoDay = ((unixTimestamp % SECONDS_PER_DAY) + SECONDS_PER_DAY) % SECONDS_PER_DAY;
  return (MIDDAY - intoDay + SECONDS_PER_DAY) % SECONDS_PER_DAY;
}

/** Moves the chain's clock forward to the next 12:00 UTC; answers where it stands after. */
export async function startAtMidday(
  clock: Pick<LocalnetTestClient, "clock" | "warpTime">,
): Promise<ClockPosition> {
  const now = await clock.clock();
  const seconds = secondsToMidday(now.unixTimestamp);
  return seconds === 0n ? now : clock.warpTime(seconds);
}
