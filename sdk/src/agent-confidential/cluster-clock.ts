/**
 * The cluster's time as programs see it: the Clock sysvar's `unix_timestamp`, read through the
 * chain port like any account (embedded cluster, localnet and RPC alike). The prover must use the
 * chain's day, not the local wall clock: the program resets today's spend by `Clock`, and a proof
 * made against the wrong day is refused (`LimitProofMismatch`).
 */
import type { ChainPort } from "../chain/chain-port";
import type { AccountRecord } from "../chain/chain-types";

export const SYSVAR_CLOCK_ADDRESS = "SysvarC1ock11111111111111111111111111111111";
export const SECONDS_PER_DAY = 86_400n;

/** Clock layout: slot u64, epoch_start_timestamp i64, epoch u64, leader_schedule_epoch u64, unix_timestamp i64. */
const UNIX_TIMESTAMP_OFFSET = 32;
const CLOCK_LENGTH = 40;

/** The cluster's unix time (seconds) from the Clock sysvar. */
export async function clusterUnixTime(chain: ChainPort): Promise<bigint> {
  return unixTimeOf(await chain.getAccount(SYSVAR_CLOCK_ADDRESS));
}

/** The unix time in a Clock sysvar account already read (e.g. in one getMultipleAccounts). */
export function unixTimeOf(clock: AccountRecord | null): bigint {
  if (clock === null || clock.data.length < CLOCK_LENGTH) {
    throw new Error("the cluster has no readable Clock sysvar");
  }
  return new DataView(clock.data.buffer, clock.data.byteOffset, clock.data.byteLength).getBigInt64(
    UNIX_TIMESTAMP_OFFSET,
    true,
  );
}

/** The UTC day of a unix time, rounding toward minus infinity like the program's `div_euclid`. */
export function utcDayIndex(unixTime: bigint): bigint {
  const day = unixTime / SECONDS_PER_DAY;
  return unixTime < 0n && day * SECONDS_PER_DAY !== unixTime ? day - 1n : day;
}
