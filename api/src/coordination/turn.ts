/**
 * A turn: work under one name runs one at a time across every API process sharing the database.
 * Callers of this process queue in memory first (so they poll the database one at a time and keep
 * their arrival order), then the head of the queue takes the lease `name` (coordination/lease.ts)
 * and holds it, renewed, while its work runs. A process killed mid-turn never releases: its lease
 * lapses after TURN_LEASE_MS and the next caller, in any process, takes the turn over.
 */
import type { Database } from "@cpay/ledger/database";
import type { Logger } from "../core/logger";
import { withLease } from "./lease";

/** How long a turn outlives its holder's last renewal (renewed every third of it while working). */
export const TURN_LEASE_MS = 15_000;

const queues = new WeakMap<Database, Map<string, Promise<unknown>>>();

/** Runs `work` holding the turn `name`: after every earlier turn of that name, in any process. */
export async function withTurn<T>(
  service: { readonly db: Database; readonly logger: Logger },
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  const inDatabase = () =>
    withLease(service.db, name, TURN_LEASE_MS, work, (lost) =>
      service.logger.error({ lease: lost }, "a turn lapsed while its work still ran (the process stalled)"),
    );
  let queue = queues.get(service.db);
  if (queue === undefined) {
    queue = new Map();
    queues.set(service.db, queue);
  }
  const previous = queue.get(name) ?? Promise.resolve();
  const run = previous.then(inDatabase, inDatabase);
  const settled = run.catch(() => undefined);
  queue.set(name, settled);
  try {
    return await run;
  } finally {
    if (queue.get(name) === settled) queue.delete(name);
  }
}
