/**
 * The hot path of every request: API key hash -> unrevoked key + its account, as ONE prepared
 * statement per database (built once; drizzle's query building costs more than the query itself).
 *
 * - PostgreSQL (any number of API processes): read on every request, never cached, so a
 *   revocation made by any process takes effect for the next request everywhere.
 * - SQLite (one process per file, by design): answers are cached in process and the cache is
 *   dropped by every write that could change one (`forgetCachedKeys`: revocation, KYC changes,
 *   key issue), which all happen in this same process — so revocation is just as immediate, and a
 *   read costs no query.
 */

import type { AccountRow, ApiKeyRow } from "@cpay/ledger";
import type { Database } from "@cpay/ledger/database";
import { and, eq, isNull, sql } from "drizzle-orm";

type Lookup = (hash: string) => Promise<{ apiKey: ApiKeyRow; account: AccountRow } | null>;

const lookups = new WeakMap<Database, Lookup>();
const caches = new WeakMap<Database, Map<string, { apiKey: ApiKeyRow; account: AccountRow }>>();

/** Drops every cached answer (call after any write to api_keys or accounts). */
export function forgetCachedKeys(database: Database): void {
  caches.get(database)?.clear();
}

export function keyLookupOf(database: Database): Lookup {
  let lookup = lookups.get(database);
  if (lookup === undefined) {
    const { apiKeys, accounts } = database.tables;
    const prepared = database.read(async (db) =>
      db
        .select({ apiKey: apiKeys, account: accounts })
        .from(apiKeys)
        .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
        .where(and(eq(apiKeys.keyHash, sql.placeholder("hash")), isNull(apiKeys.revokedAt)))
        .limit(1)
        .prepare("api_key_lookup"),
    );
    const query: Lookup = async (hash) => {
      const statement = await prepared;
      const rows = await database.read(async () => statement.execute({ hash }));
      return rows[0] ?? null;
    };
    if (database.dialect === "sqlite") {
      const cache = new Map<string, { apiKey: ApiKeyRow; account: AccountRow }>();
      caches.set(database, cache);
      lookup = async (hash) => {
        const hit = cache.get(hash);
        if (hit !== undefined) return hit;
        const found = await query(hash);
        // Only positive answers are cached: an unknown key must not fill memory.
        if (found !== null) cache.set(hash, found);
        return found;
      };
    } else {
      lookup = query;
    }
    lookups.set(database, lookup);
  }
  return lookup;
}
