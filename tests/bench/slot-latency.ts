/**
 * How the latency benches measure a payment: from the call that makes it to the first read that says
 * `confirmed` (the indexer's word, the one writer of it), read every POLL_MS, in slots of the
 * localnet's SLOT_MS; medians and percentiles of repeated runs.
 */

/** The localnet's slot time in the latency benches (a real cluster's, about). */
export const SLOT_MS = 400;
const POLL_MS = 20;
const CONFIRM_TIMEOUT_MS = 60_000;

/**
 * Reads the transfer's status with `read` until it says `confirmed`, from `status` (what the
 * payment answered); throws when it is neither pending nor confirmed, or still pending
 * CONFIRM_TIMEOUT_MS after `started` (a `performance.now()`).
 */
export async function untilConfirmed(
  transferId: string,
  status: string | undefined,
  read: () => Promise<string | undefined>,
  started: number,
): Promise<void> {
  let now = status;
  while (now !== "confirmed") {
    if (now !== "pending") throw new Error(`transfer ${transferId} is ${now}, not on its way`);
    if (performance.now() - started > CONFIRM_TIMEOUT_MS) {
      throw new Error(`transfer ${transferId} not confirmed in time`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    now = await read();
  }
}

/** The nearest-rank percentile `p` (0-100) of `samples`. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Milliseconds in slots, to two decimals. */
export const slots = (ms: number) => Number((ms / SLOT_MS).toFixed(2));
