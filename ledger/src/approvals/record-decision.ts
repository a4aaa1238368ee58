/**
 * Writes what happened to a hold on-chain, in one DB transaction: the `holds` row's new
 * status (guarded by `pending_approval`, so a decision is written once however many observers
 * report it), the linked transfer, and the outbox facts.
 *
 * | decision | hold | transfer (`hold_id`) | events |
 * |---|---|---|---|
 * | approved | approved, decided_at, tx_signature | tx_signature = the approval, phase `submitted` (the settlement job confirms it) | `transfer.initiated`, `agent.transaction.approved` |
 * | rejected | rejected, decided_at, tx_signature | failed, settled, failure_code `rejected` | `transfer.failed`, `agent.transaction.rejected` |
 * | expired  | expired, decided_at, tx_signature (the close, if ours) | failed, settled, failure_code `expired` | `transfer.failed` |
 *
 * Hold events go to the owner (events/hold-events.ts builds them).
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/database";
import type { AccountRow, HoldRow, TransferRow } from "../db/rows";
import { holdDecidedFact } from "../events/hold-events";
import { type OutboxContext, recordEvent } from "../events/record-event";
import { nowIso } from "../ids";
import { recordTransferUsage } from "../transfers/record-usage";
import { recordTransferEvent } from "../transfers/transfer-events";
import { moveTransfer, withSignature } from "../transfers/transfer-transitions";

export interface Decision {
  readonly status: "approved" | "rejected" | "expired";
  /** The transaction that closed the hold on-chain; null when it is not known. */
  readonly signature: string | null;
}

/**
 * Records `decision` for `row` of `agent`. Returns the updated row, or null when the row had
 * already left `pending_approval` (someone else recorded a decision first; nothing was written).
 */
export async function recordDecision(
  service: OutboxContext,
  row: HoldRow,
  agent: AccountRow,
  decision: Decision,
): Promise<HoldRow | null> {
  return service.db.transaction((tx) => recordDecisionIn(service, tx, row, agent, decision, nowIso()));
}

/**
 * `recordDecision` inside the caller's transaction `tx`; `decidedAt` is when the decision was seen:
 * by the API once its own decision landed, or by the indexer reading the chain at confirmed.
 */
export async function recordDecisionIn(
  service: OutboxContext,
  tx: Db,
  row: HoldRow,
  agent: AccountRow,
  decision: Decision,
  decidedAt: string,
): Promise<HoldRow | null> {
  const { holds } = service.db.tables;
  const [updated] = await tx
    .update(holds)
    .set({ status: decision.status, decidedAt, txSignature: decision.signature })
    .where(and(eq(holds.id, row.id), eq(holds.status, "pending_approval")))
    .returning();
  if (updated === undefined) return null;
  const transfer = await updateTransfer(service, tx, updated, decision);
  if (decision.status !== "expired") {
    await recordEvent(
      service,
      tx,
      holdDecidedFact(agent, updated, decision.status, transfer?.asset ?? "USDG"),
    );
  }
  return updated;
}

/** The transfer's side of the decision; null if the hold has no transfer row (never expected). */
async function updateTransfer(
  service: OutboxContext,
  tx: Db,
  held: HoldRow,
  decision: Decision,
): Promise<TransferRow | null> {
  const { transfers } = service.db.tables;
  const [transfer] = await tx.select().from(transfers).where(eq(transfers.holdId, held.id));
  if (transfer === undefined) return null;
  const signatures = JSON.stringify(withSignature(transfer.signatures, decision.signature));
  const approved = decision.status === "approved";
  const moved = await moveTransfer(service, tx, transfer.id, {
    from: ["held"],
    ...(approved
      ? { to: "submitted", set: { txSignature: decision.signature, signatures } }
      : { to: "failed", set: { failureCode: decision.status, signatures } }),
  });
  if (moved === undefined) return transfer;
  // Approval is when a held transfer is submitted (spec 3.1: `transfer.initiated`), and when it
  // counts toward its key's usage (the amount was encrypted into the row when it was requested).
  await recordTransferEvent(service, tx, approved ? "transfer.initiated" : "transfer.failed", moved);
  if (approved) {
    await recordTransferUsage(service, tx, { apiKeyId: moved.apiKeyId, increment: moved.usageIncrement });
  }
  return moved;
}
