/**
 * A per-key in-process lock: work for one key (an agent handle, a held transaction) runs one at a
 * time, so two concurrent requests of this process never race each other to the chain. Across
 * processes the database's unique indexes and conditional updates, and the program itself, keep
 * the outcome single; this lock only spares the loser a chain round-trip and a confusing error.
 */

const tails = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier `runExclusively(key, ...)` of this process has settled. */
export function runExclusively<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.catch(() => {});
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
