/**
 * Serialises the operations that spend from one confidential account (apply pending balance,
 * transfer, withdraw). Each builds proofs against the available-balance ciphertext it reads; two
 * running at once would both prove against the same ciphertext and the second would fail on-chain
 * (or, for apply, leave a wrong AE balance). Queuing them in this process makes the second read the
 * state the first left. Keyed by chain port object and token account, so unrelated accounts and
 * clusters run in parallel. Other processes spending from the same account must coordinate
 * themselves (the service holds one writer per account).
 */

const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

/** Runs `task` after every earlier task queued for (`scope`, `account`) has settled. */
export function runExclusive<T>(scope: object, account: string, task: () => Promise<T>): Promise<T> {
  let byAccount = queues.get(scope);
  if (byAccount === undefined) {
    byAccount = new Map();
    queues.set(scope, byAccount);
  }
  const previous = byAccount.get(account) ?? Promise.resolve();
  const run = previous.then(task, task);
  // The queue keeps going after a failed task; its caller gets the failure through `run`.
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  byAccount.set(account, settled);
  void settled.then(() => {
    if (byAccount.get(account) === settled) byAccount.delete(account);
  });
  return run;
}
