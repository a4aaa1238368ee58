/**
 * A hold's decision seen on chain, recorded through the API's own `recordDecisionIn` (guarded by
 * `pending_approval`, so the API's request and the indexer record it once), dated when the indexer
 * saw it unless that was before the hold was requested.
 */
import { type Decision, type HoldRow, recordDecisionIn } from "@cpay/ledger";
import type { Db } from "@cpay/ledger/database";
import { eq } from "drizzle-orm";
import { type ApplyContext, seenIso } from "./apply-context";

/** Records `decision` of `held`; false (nothing recorded) when the hold's agent account is gone. */
export async function recordHoldDecision(
  ctx: ApplyContext,
  tx: Db,
  held: HoldRow,
  decision: Decision,
  seenAt: number,
): Promise<boolean> {
  const { accounts } = ctx.db.tables;
  const [agent] = await tx.select().from(accounts).where(eq(accounts.id, held.agentAccountId));
  if (agent === undefined) return false;
  await recordDecisionIn(ctx, tx, held, agent, decision, seenIso(seenAt, held.requestedAt));
  return true;
}
