/**
 * The indexer's position in the program's history: the newest transaction whose records are
 * committed. Read at the start of every pass; written only inside the transaction that commits
 * that transaction's records (project/apply-transaction.ts).
 */
import type { OutboxContext } from "@cpay/ledger";
import type { Db } from "@cpay/ledger/database";
import { eq } from "drizzle-orm";

/** One history, the program's: the row's key. */
export const PROGRAM_SOURCE = "program";

export interface Checkpoint {
  readonly slot: bigint;
  readonly signature: string;
}

export async function readCheckpoint(ctx: OutboxContext): Promise<Checkpoint | null> {
  const { indexerCheckpoints } = ctx.db.tables;
  const [row] = await ctx.db.read((db) =>
    db.select().from(indexerCheckpoints).where(eq(indexerCheckpoints.source, PROGRAM_SOURCE)),
  );
  return row === undefined ? null : { slot: BigInt(row.slot), signature: row.signature };
}

export async function writeCheckpoint(ctx: OutboxContext, tx: Db, at: Checkpoint): Promise<void> {
  const { indexerCheckpoints } = ctx.db.tables;
  const values = {
    slot: Number(at.slot),
    signature: at.signature,
    updatedAt: new Date(ctx.clock()).toISOString(),
  };
  await tx
    .insert(indexerCheckpoints)
    .values({ source: PROGRAM_SOURCE, ...values })
    .onConflictDoUpdate({ target: indexerCheckpoints.source, set: values });
}
