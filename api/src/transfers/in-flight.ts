/**
 * In-process bookkeeping of transfers being made right now:
 * - one at a time per sending account (`withAccountTurn`), so the balance check and the proofs of a
 *   transfer see the balance the previous transfer of the account left, never a stale one (the SDK
 *   serialises its own steps per token account, but not our check-then-write-then-submit);
 * - the ids of transfers whose request is still running (`isInFlight`), which crash recovery must
 *   not judge: their `submitting` row is not a leftover of a crash.
 * Across processes (PostgreSQL deployments) the recovery relies on its age threshold instead.
 */

const turns = new Map<string, Promise<unknown>>();
const inFlight = new Set<string>();

/** Runs `work` after every earlier turn of `accountId` in this process has settled. */
export async function withAccountTurn<T>(accountId: string, work: () => Promise<T>): Promise<T> {
  const previous = turns.get(accountId) ?? Promise.resolve();
  const run = previous.then(work, work);
  const settled = run.catch(() => undefined);
  turns.set(accountId, settled);
  try {
    return await run;
  } finally {
    if (turns.get(accountId) === settled) turns.delete(accountId);
  }
}

/** Marks `transferId` in flight while `work` runs. */
export async function whileInFlight<T>(transferId: string, work: () => Promise<T>): Promise<T> {
  inFlight.add(transferId);
  try {
    return await work();
  } finally {
    inFlight.delete(transferId);
  }
}

/** True while this process is still making transfer `transferId`. */
export function isInFlight(transferId: string): boolean {
  return inFlight.has(transferId);
}
