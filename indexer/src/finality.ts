/**
 * Commitment: records are written at `confirmed`; once a recorded transaction's slot is finalized
 * the chain is asked again. Still there -> its events are `finalized`. Gone (a fork the cluster
 * abandoned) -> `reverted`: the transfers it confirmed become `failed` (`failure_code`
 * `reverted`, `transfer.failed` fired), because no funds moved on the chain that survived.
 * Holds and decisions of a reverted transaction are marked reverted and logged; the program's
 * accounts (the hold's PDA) are the truth the owner acts on, and the API re-reads them.
 */
import { markFailedIn } from "@cpay/ledger";
import { and, eq, inArray, lte } from "drizzle-orm";
import type { IndexerContext } from "./index-pass";

const BATCH = 256;

export interface FinalityResult {
  readonly finalized: number;
  readonly reverted: number;
}

export async function checkFinality(ctx: IndexerContext): Promise<FinalityResult> {
  const { indexedEvents } = ctx.db.tables;
  const finalizedSlot = Number(await ctx.chain.finalizedSlot());
  const rows = await ctx.db.read((db) =>
    db
      .selectDistinct({ signature: indexedEvents.signature })
      .from(indexedEvents)
      .where(and(eq(indexedEvents.state, "confirmed"), lte(indexedEvents.slot, finalizedSlot)))
      .limit(BATCH),
  );
  if (rows.length === 0) return { finalized: 0, reverted: 0 };
  const signatures = rows.map((row) => row.signature);
  const states = await ctx.chain.signatureStates(signatures);
  const finalized: string[] = [];
  let reverted = 0;
  for (const [index, signature] of signatures.entries()) {
    const state = states[index] ?? null;
    if (state === null) {
      await revertTransaction(ctx, signature);
      reverted += 1;
    } else if (state.confirmationStatus === "finalized") {
      finalized.push(signature);
    }
  }
  if (finalized.length > 0) {
    await ctx.db.transaction((tx) =>
      tx.update(indexedEvents).set({ state: "finalized" }).where(inArray(indexedEvents.signature, finalized)),
    );
  }
  return { finalized: finalized.length, reverted };
}

const TRANSFER_EVENTS = new Set([
  "ServiceTransferRecorded",
  "TransferExecuted",
  "ConfidentialTransferExecuted",
]);

async function revertTransaction(ctx: IndexerContext, signature: string): Promise<void> {
  const { indexedEvents } = ctx.db.tables;
  await ctx.db.transaction(async (tx) => {
    const events = await tx.select().from(indexedEvents).where(eq(indexedEvents.signature, signature));
    for (const event of events) {
      if (event.resourceId === null) continue;
      if (TRANSFER_EVENTS.has(event.event)) {
        await markFailedIn(ctx, tx, event.resourceId, {
          from: "settled",
          failureCode: "reverted",
          fireEvent: true,
        });
      } else {
        ctx.logger.warn(
          { signature, event: event.event, resource_id: event.resourceId },
          "a reverted transaction's event had a record; left for the program's accounts to decide",
        );
      }
    }
    await tx.update(indexedEvents).set({ state: "reverted" }).where(eq(indexedEvents.signature, signature));
  });
}
