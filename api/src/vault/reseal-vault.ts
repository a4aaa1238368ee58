/**
 * Master-key rotation, the part that runs while the service serves: every vault record sealed under
 * a previous key is opened and sealed again under the current one, a small batch at a time, each
 * batch one short transaction. A row is rewritten only if it still holds exactly what was read
 * (compare-and-set on key id and sealed text), so a secret the service deleted or replaced meanwhile
 * is never brought back or overwritten; such a row is counted and left alone. Pages go by
 * (account_id, kind), so every row is visited once even when some cannot be moved.
 */
import type { Database } from "@cpay/ledger/database";
import { and, asc, eq, gt, lt, ne, or, sql } from "drizzle-orm";
import { type MasterKey, openSecret, sealSecret, VaultError } from "../core/vault-crypto";
import { DEFAULT_RESEAL_BATCH } from "./reseal-batch";

export { DEFAULT_RESEAL_BATCH };

interface Cursor {
  readonly accountId: string;
  readonly kind: string;
}

type VaultRow = Database["tables"]["vaultSecrets"]["$inferSelect"];

export interface ResealReport {
  /** Rows now sealed under the current key by this run. */
  readonly resealed: number;
  /** Rows the service changed or deleted between the read and the write (left as the service made them). */
  readonly changedMeanwhile: number;
  /** Rows whose key is not configured, or that do not open under the key they name. */
  readonly unopenable: readonly {
    readonly accountId: string;
    readonly kind: string;
    readonly keyId: string;
  }[];
  /** After the run: how many rows each key id other than the current one still seals. */
  readonly remaining: readonly { readonly keyId: string; readonly rows: number }[];
}

/** Re-seals under `current` every row sealed under one of `previous` (see the module doc). */
export async function resealVault(
  db: Database,
  keys: { readonly current: MasterKey; readonly previous: readonly MasterKey[] },
  options: { readonly batchSize?: number; readonly onBatch?: (resealed: number) => void } = {},
): Promise<ResealReport> {
  const { vaultSecrets } = db.tables;
  const batchSize = options.batchSize ?? DEFAULT_RESEAL_BATCH;
  const byId = new Map(keys.previous.map((key) => [key.id, key]));
  const unopenable: { accountId: string; kind: string; keyId: string }[] = [];
  let resealed = 0;
  let changedMeanwhile = 0;
  let after: Cursor | null = null;
  for (;;) {
    const from: Cursor | null = after;
    const rows: VaultRow[] = await db.read((tx) =>
      tx
        .select()
        .from(vaultSecrets)
        .where(
          and(
            ne(vaultSecrets.keyId, keys.current.id),
            from === null
              ? undefined
              : or(
                  gt(vaultSecrets.accountId, from.accountId),
                  and(eq(vaultSecrets.accountId, from.accountId), gt(vaultSecrets.kind, from.kind)),
                ),
          ),
        )
        .orderBy(asc(vaultSecrets.accountId), asc(vaultSecrets.kind))
        .limit(batchSize),
    );
    if (rows.length === 0) break;
    const last = rows[rows.length - 1] as VaultRow;
    after = { accountId: last.accountId, kind: last.kind };

    // Crypto outside the transaction: the write lock is held only for the compare-and-set updates.
    const updates: { row: VaultRow; sealed: string }[] = [];
    for (const row of rows) {
      const key = byId.get(row.keyId);
      if (key === undefined) {
        unopenable.push({ accountId: row.accountId, kind: row.kind, keyId: row.keyId });
        continue;
      }
      let secret: Uint8Array;
      try {
        secret = openSecret(key, row.accountId, row.kind, row.sealed);
      } catch (error) {
        if (!(error instanceof VaultError)) throw error;
        unopenable.push({ accountId: row.accountId, kind: row.kind, keyId: row.keyId });
        continue;
      }
      updates.push({ row, sealed: sealSecret(keys.current, row.accountId, row.kind, secret) });
      secret.fill(0);
    }
    const written = await db.transaction(async (tx) => {
      let count = 0;
      for (const { row, sealed } of updates) {
        const done = await tx
          .update(vaultSecrets)
          .set({ keyId: keys.current.id, sealed })
          .where(
            and(
              eq(vaultSecrets.accountId, row.accountId),
              eq(vaultSecrets.kind, row.kind),
              eq(vaultSecrets.keyId, row.keyId),
              eq(vaultSecrets.sealed, row.sealed),
            ),
          )
          .returning({ accountId: vaultSecrets.accountId });
        count += done.length;
      }
      return count;
    });
    resealed += written;
    changedMeanwhile += updates.length - written;
    options.onBatch?.(resealed);
  }
  return { resealed, changedMeanwhile, unopenable, remaining: await keysInUse(db, keys.current.id) };
}

/** Rows per key id other than `currentId`, most first. */
export async function keysInUse(
  db: Database,
  currentId: string,
): Promise<{ readonly keyId: string; readonly rows: number }[]> {
  const { vaultSecrets } = db.tables;
  const counts = await db.read((tx) =>
    tx
      .select({ keyId: vaultSecrets.keyId, rows: sql<number>`count(*)` })
      .from(vaultSecrets)
      .where(ne(vaultSecrets.keyId, currentId))
      .groupBy(vaultSecrets.keyId),
  );
  return counts
    .map((entry) => ({ keyId: entry.keyId, rows: Number(entry.rows) }))
    .sort((a, b) => b.rows - a.rows);
}

/**
 * When the previous keys stop being needed by stored idempotency records: those made before
 * `before` (when every process already sealed under the current key) were fingerprinted and
 * sealed under the key of their time, and are kept until they expire (24 h at most). Null when
 * none is left.
 */
export async function earlierIdempotencyExpiry(db: Database, before: string): Promise<string | null> {
  const { idempotencyKeys } = db.tables;
  const [latest] = await db.read((tx) =>
    tx
      .select({ expiresAt: sql<string | null>`max(${idempotencyKeys.expiresAt})` })
      .from(idempotencyKeys)
      .where(
        and(lt(idempotencyKeys.createdAt, before), gt(idempotencyKeys.expiresAt, new Date().toISOString())),
      ),
  );
  return latest?.expiresAt ?? null;
}
