/**
 * Applies a run of consecutive chain transactions — their facts, their `indexed_events` rows and the
 * checkpoint at the last of them — in ONE database transaction: the records, their outbox events
 * (and so their webhook deliveries) and the position in the program's history commit together or
 * not at all, so a crash at any point resumes at the last committed run and neither loses nor
 * repeats a fact. (A run rather than one at a time: one commit and one lock hand-off per run.)
 */
import type { Db } from "@cpay/ledger/database";
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

export interface ObservedRun {
  readonly at: IndexedPosition;
  readonly facts: readonly ObservedFact[];
}

/** Applies `run` (oldest first, consecutive in the program's history); the checkpoint is its last. */
export async function applyTransactions(ctx: ApplyContext, run: readonly ObservedRun[]): Promise<void> {
  const last = run[run.length - 1];
  if (last === undefined) return;
  const { indexedEvents } = ctx.db.tables;
  // When this run was seen at confirmed: one reading of the clock, so every time the run writes
  // (confirmed_at, decided_at, indexed_events' created_at) is the same moment.
  const seenAt = ctx.clock();
  const createdAt = new Date(seenAt).toISOString();
  await ctx.db.transaction(async (tx) => {
    for (const fact of run.flatMap((transaction) => transaction.facts)) {
      const resourceId = await applyFact(ctx, tx, fact, seenAt);
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
    await writeCheckpoint(ctx, tx, last.at);
  });
}

function applyFact(ctx: ApplyContext, tx: Db, fact: ObservedFact, seenAt: number): Promise<string | null> {
  switch (fact.kind) {
    case "transfer_executed":
      return applyTransferExecuted(ctx, tx, fact, seenAt);
    case "transfer_held":
      return applyTransferHeld(ctx, tx, fact, seenAt);
    case "hold_decided":
      return applyHoldDecided(ctx, tx, fact, seenAt);
    case "policy_updated":
      return applyPolicyUpdated(ctx, tx, fact);
    case "other":
      return Promise.resolve(null);
  }
}
