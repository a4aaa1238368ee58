/**
 * The localnet's own test-cluster methods, beyond Solana's RPC: moving the clock the way in-process
 * suites move the simulator's (hold expiry, receipt ages, spend windows), so the same suites can run
 * against the localnet process. No validator answers these; clients of a real cluster must never
 * call them, and the service never does (only tests/support does). Every move goes through the
 * cluster's slot clock, so a localnet with a chain store journals it like the timer's own slots.
 *
 * - `localnet_advanceSlots [count]`: produces `count` slots now (1..100000);
 * - `localnet_warpTime [seconds]`: moves the Clock sysvar's time on by `seconds` (no slots);
 * - `localnet_setUnixTime [seconds]`: sets the Clock sysvar's time (no slots);
 * - `localnet_clock []`: where the clock stands.
 * Each answers `{ slot, unixTimestamp }` after the move.
 */
import type { SlotClock } from "../../cluster/slot-clock";
import { invalidParams, methodNotFound } from "../json-rpc-errors";
import { positional, requireU64 } from "../params";
import type { MethodContext, RpcMethod } from "../rpc-context";

/** What these methods may do to the cluster's clock. */
export type TestClock = Pick<SlotClock, "advance" | "warpTime" | "setUnixTime" | "slot" | "unixTimestamp">;

const MAX_ADVANCE = 100_000n;
/** Far beyond any hold window a test warps over, and far inside i64 seconds. */
const MAX_SECONDS = 10n ** 12n;

function testClockOf(context: MethodContext): TestClock {
  if (context.testClock === undefined) {
    // A server given no clock (an embedding that did not ask for them) answers as a validator would.
    throw methodNotFound();
  }
  return context.testClock;
}

function position(clock: TestClock): { slot: bigint; unixTimestamp: bigint } {
  return { slot: clock.slot, unixTimestamp: clock.unixTimestamp };
}

function secondsParam(params: unknown): bigint {
  const [raw] = positional(params, 1, 1);
  const seconds = requireU64(raw, "param 0 (seconds)");
  if (seconds > MAX_SECONDS) throw invalidParams(`Invalid params: param 0 (seconds): at most ${MAX_SECONDS}`);
  return seconds;
}

const advanceSlots: RpcMethod = (params, context) => {
  const [raw] = positional(params, 1, 1);
  const count = requireU64(raw, "param 0 (count)");
  if (count < 1n || count > MAX_ADVANCE) {
    throw invalidParams(`Invalid params: param 0 (count): 1..${MAX_ADVANCE} slots`);
  }
  const clock = testClockOf(context);
  clock.advance(Number(count));
  return position(clock);
};

const warpTime: RpcMethod = (params, context) => {
  const seconds = secondsParam(params);
  const clock = testClockOf(context);
  clock.warpTime(seconds);
  return position(clock);
};

const setUnixTime: RpcMethod = (params, context) => {
  const seconds = secondsParam(params);
  const clock = testClockOf(context);
  clock.setUnixTime(seconds);
  return position(clock);
};

const clockNow: RpcMethod = (params, context) => {
  positional(params, 0, 0);
  return position(testClockOf(context));
};

export const testClockMethods: Record<string, RpcMethod> = {
  localnet_advanceSlots: advanceSlots,
  localnet_warpTime: warpTime,
  localnet_setUnixTime: setUnixTime,
  localnet_clock: clockNow,
};
