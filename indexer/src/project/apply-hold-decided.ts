/**
 * A hold was approved, rejected, or closed after expiry on chain: the hold and its
 * transfer move through the API's own `recordDecision` (guarded by `pending_approval`, so the
 * API's request and the indexer record a decision once). An approval leaves the transfer
 * `submitted`; the `TransferExecuted` of the same transaction then confirms it.
 */
import type { Db } from "@cpay/ledger/database";
import { eq } from "drizzle-orm";
import type { ApplyContext } from "./apply-context";
import type { HoldDecidedFact } from "./observed-fact";
import { recordHoldDecision } from "./record-hold-decision";

/**
 * Applies the fact; returns the `tx_...` id, or null when no hold holds it. `seenAt`
 * (unix ms) is when the indexer saw the decision: its `decided_at` when the indexer records it first.
 */
export async function applyHoldDecided(
  ctx: ApplyContext,
  tx: Db,
  fact: HoldDecidedFact,
  seenAt: number,
): Promise<string | null> {
  const { holds } = ctx.db.tables;
  const [held] = await tx.select().from(holds).where(eq(holds.holdAddress, fact.pending));
  if (held === undefined) return null;
  const decision = { status: fact.decision, signature: fact.position.signature };
  return (await recordHoldDecision(ctx, tx, held, decision, seenAt)) ? held.id : null;
}
