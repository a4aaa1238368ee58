/**
 * Per-key request usage (spec 5.6: last used, request count) of the requests the service carried
 * out for the key (2xx answers; a refusal counts nothing: mount-routes.ts), counted in memory and
 * written in one transaction per second instead of one write per request — a write on every read
 * would halve the API's throughput. A crash can lose at most the last second of request counts;
 * nothing that moves money is counted here (a transfer's usage — count and encrypted total — is
 * written in the same transaction as the transfer itself). The stopper flushes what is left.
 */

import type { Database } from "@cpay/ledger/database";
import { eq, sql } from "drizzle-orm";
import { registerBackgroundJob } from "../coordination/background-jobs";
import type { ServiceContext } from "../core/service-context";

const FLUSH_MS = 1000;

interface Pending {
  count: number;
  lastUsedAt: string;
}

const pendingByDatabase = new WeakMap<Database, Map<string, Pending>>();

/** Counts one request of `keyId` the service carried out. */
export function countRequest(database: Database, keyId: string): void {
  let pending = pendingByDatabase.get(database);
  if (pending === undefined) {
    pending = new Map();
    pendingByDatabase.set(database, pending);
  }
  const entry = pending.get(keyId);
  const now = new Date().toISOString();
  if (entry === undefined) pending.set(keyId, { count: 1, lastUsedAt: now });
  else {
    entry.count += 1;
    entry.lastUsedAt = now;
  }
}

/** Writes the counted usage; safe to call at any time. */
export async function flushUsage(database: Database): Promise<void> {
  const pending = pendingByDatabase.get(database);
  if (pending === undefined || pending.size === 0) return;
  const batch = [...pending.entries()];
  pending.clear();
  const { apiKeys } = database.tables;
  try {
    await database.transaction(async (tx) => {
      for (const [keyId, entry] of batch) {
        await tx
          .update(apiKeys)
          .set({ requestCount: sql`${apiKeys.requestCount} + ${entry.count}`, lastUsedAt: entry.lastUsedAt })
          .where(eq(apiKeys.id, keyId));
      }
    });
  } catch (error) {
    // Put the counts back for the next flush rather than lose them.
    for (const [keyId, entry] of batch) {
      const current = pending.get(keyId);
      if (current === undefined) pending.set(keyId, entry);
      else current.count += entry.count;
    }
    throw error;
  }
}

registerBackgroundJob((service: ServiceContext) => {
  const timer = setInterval(() => {
    flushUsage(service.db).catch((error: unknown) =>
      service.logger.warn({ err: { name: (error as Error)?.name } }, "usage flush failed; retrying"),
    );
  }, FLUSH_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await flushUsage(service.db);
  };
});
