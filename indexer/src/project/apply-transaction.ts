/**
 * Applies one chain transaction's facts, its `indexed_events` rows and the checkpoint in ONE
 * database transaction: the records, their outbox events (and so their webhook deliveries) and the
 * position in the program's history commit together or not at all, so a crash at any point
 * resumes at the last committed transaction and neither loses nor repeats a fact.
 */
import type { Db } from "@cpay/api/database";
import { writeCheckpoint } from "../checkpoint";
import type { ApplyContext } from "./apply-context";
import { applyHoldDecided } from "./apply-hold-decided";
import { applyPolicyUpdated } from "./apply-policy-updated";
import { applyTransferExecuted } from "./apply-transfer-executed";
import { applyTransferHeld } from "./apply-transfer-held";
import type { ObservedFact } from "./observed-fact";

export interface IndexedPosition {
  readonly signature: string;
  readonly slot: bigint;
}

export async function applyTransaction(
  ctx: ApplyContext,
  at: IndexedPosition,
  facts: readonly ObservedFact[],
): Promise<void> {
  const { indexedEvents } = ctx.db.tables;
  const createdAt = new Date(ctx.clock()).toISOString();
  await ctx.db.transaction(async (tx) => {
    for (const fact of facts) {
      const resourceId = await applyFact(ctx, tx, fact);
      await tx
        .insert(indexedEvents)
        .values({
          signature: fact.position.signature,
          instructionIndex: fact.position.instructionIndex,
          eventIndex: fact.position.eventIndex,
          slot: Number(fact.position.slot),
          event: fact.position.event,
          resourceId,
          state: "confirmed",
          createdAt,
        })
        .onConflictDoNothing();
    }
    await writeCheckpoint(ctx, tx, at);
  });
}

function applyFact(ctx: ApplyContext, tx: Db, fact: ObservedFact): Promise<string | null> {
  switch (fact.kind) {
    case "transfer_executed":
      return applyTransferExecuted(ctx, tx, fact);
    case "transfer_held":
      return applyTransferHeld(ctx, tx, fact);
    case "hold_decided":
      return applyHoldDecided(ctx, tx, fact);
    case "policy_updated":
      return applyPolicyUpdated(ctx, tx, fact);
    case "other":
      return Promise.resolve(null);
  }
}
