/**
 * The cluster's rent schedule, read once from its Rent sysvar, for code that needs the rent-exempt
 * minimum of many sizes synchronously (the relay's checks, the reserve's spend bound). It computes
 * exactly what `minimumBalanceForRentExemption` answers (Solana's `Rent::minimum_balance`).
 */
import type { ChainPort } from "@cpay/sdk/chain";

const SYSVAR_RENT_ADDRESS = "SysvarRent111111111111111111111111111111111";
/** Bytes Solana charges every account for on top of its data. */
const ACCOUNT_STORAGE_OVERHEAD = 128n;
/** Rent layout: lamports_per_byte_year u64, exemption_threshold f64, burn_percent u8. */
const RENT_LENGTH = 17;

/** The rent-exempt minimum of an account of `space` data bytes, under the cluster's Rent now. */
export type RentExemptMinimum = (space: number) => bigint;

/** How long a schedule read is used: a cluster's Rent changes only with a feature activation. */
const RENT_KEPT_MS = 10 * 60 * 1000;
const kept = new WeakMap<ChainPort, { readonly at: number; readonly schedule: Promise<RentExemptMinimum> }>();

/**
 * `readRentExemptMinimum`, read again at most every RENT_KEPT_MS (the reserve reads it for every
 * signature, the relay for every request).
 */
export function rentExemptMinimumOf(chain: ChainPort): Promise<RentExemptMinimum> {
  const now = Date.now();
  const entry = kept.get(chain);
  if (entry !== undefined && now - entry.at < RENT_KEPT_MS) return entry.schedule;
  const schedule = readRentExemptMinimum(chain);
  kept.set(chain, { at: now, schedule });
  schedule.catch(() => {
    if (kept.get(chain)?.schedule === schedule) kept.delete(chain);
  });
  return schedule;
}

export async function readRentExemptMinimum(chain: ChainPort): Promise<RentExemptMinimum> {
  const account = await chain.getAccount(SYSVAR_RENT_ADDRESS);
  if (account === null || account.data.length < RENT_LENGTH) {
    throw new Error("the cluster has no readable Rent sysvar");
  }
  const view = new DataView(account.data.buffer, account.data.byteOffset, account.data.byteLength);
  const lamportsPerByteYear = view.getBigUint64(0, true);
  const threshold = view.getFloat64(8, true);
  return (space) => {
    const base = (ACCOUNT_STORAGE_OVERHEAD + BigInt(space)) * lamportsPerByteYear;
    // As the validator computes it: the product as f64 times the threshold, truncated. An integer
    // threshold (1.0 or 2.0, the only ones clusters use) keeps it exact for any real account size.
    return Number.isInteger(threshold)
      ? base * BigInt(threshold)
      : BigInt(Math.trunc(Number(base) * threshold));
  };
}
