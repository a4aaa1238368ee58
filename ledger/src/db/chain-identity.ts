/**
 * Which chain a database describes: the genesis hash recorded by the first API that opened it
 * (`service_meta.chain_genesis_hash`). The API refuses to serve another chain from it, and the
 * indexer refuses to write records of another chain into it: rows of one chain in another chain's
 * database would confirm transfers that never happened there.
 */
import { eq } from "drizzle-orm";
import type { Database, Db } from "./database";

const CHAIN_IDENTITY_KEY = "chain_genesis_hash";

/** The genesis hash the database was bound to, or null when no API has opened it yet. */
export async function recordedGenesisHash(db: Database): Promise<string | null> {
  const { serviceMeta } = db.tables;
  const [row] = await db.read((q) =>
    q.select().from(serviceMeta).where(eq(serviceMeta.key, CHAIN_IDENTITY_KEY)),
  );
  return row?.value ?? null;
}

/** Records `genesisHash` unless one is recorded already (the caller checked which). */
export async function recordGenesisHash(
  tx: Db,
  tables: Database["tables"],
  genesisHash: string,
): Promise<void> {
  await tx
    .insert(tables.serviceMeta)
    .values({ key: CHAIN_IDENTITY_KEY, value: genesisHash })
    .onConflictDoNothing();
}
