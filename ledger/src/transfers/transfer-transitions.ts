/**
 * The transfer row's lifecycle (the `transfers` table; its states and allowed moves are the table
 * in transfer-states.ts), each change in one DB transaction with the outbox fact it fires:
 *
 *   submitting --(funds-moving tx landed)--> submitted  [transfer.initiated, key usage]
 *   submitting --(the program held it)-----> held       [holds row, pending_approval]
 *                                                       (mark-held.ts)
 *   submitting --(nothing moved)-----------> failed     [transfer.failed unless refused at once]
 *   submitted  --(confirmed at the chain)---> confirmed  (the indexer only)
 *   held       --(the owner decided)--------> submitted | failed (approvals/record-decision.ts)
 *
 * Every update goes through `moveTransfer`, guarded by the states it may leave, so two observers of
 * one fact (the request, the crash-recovery pass, the indexer, or two processes) change the row
 * once and fire its event once, and a move the table refuses is never written. Each transition has
 * an `...In` form that runs inside the caller's transaction (the indexer writes a whole chain
 * transaction's records with its checkpoint) and a form that opens its own.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/database";
import type { TransferRow } from "../db/rows";
import type { OutboxContext } from "../events/record-event";
import { recordTransferUsage, type TransferUsage } from "./record-usage";
import { recordTransferEvent } from "./transfer-events";
import { NOT_LANDED, TRANSFER_STATES, type TransferState, transitionGuard } from "./transfer-states";

/** The columns a move writes besides its new state's `status` and `phase`. */
export type MoveColumns = Partial<Omit<TransferRow, "id" | "status" | "phase">>;

/**
 * Moves transfer `transferId` to state `to` (writing `set` with it) if it is in one of `from`;
 * returns the row as updated, or undefined when it was in none (someone else moved it first).
 * Throws `IllegalTransferTransition` for a move the transition table refuses.
 */
export async function moveTransfer(
  service: OutboxContext,
  tx: Db,
  transferId: string,
  move: { readonly from: readonly TransferState[]; readonly to: TransferState; readonly set?: MoveColumns },
): Promise<TransferRow | undefined> {
  const { transfers } = service.db.tables;
  const guard = transitionGuard(transfers, move.from, move.to);
  const [updated] = await tx
    .update(transfers)
    .set({ ...move.set, ...TRANSFER_STATES[move.to] })
    .where(and(eq(transfers.id, transferId), guard))
    .returning();
  return updated;
}

/** The columns a `submitting` row is written with; the rest start as every new row's. */
export type SubmittingTransfer = Omit<
  TransferRow,
  "status" | "phase" | "txSignature" | "signatures" | "failureCode" | "holdId" | "confirmedAt"
>;

/** Writes the row before anything is sent to the chain (crash recovery starts from it). */
export async function insertSubmittingTransfer(
  service: OutboxContext,
  values: SubmittingTransfer,
): Promise<TransferRow> {
  return service.db.transaction((tx) => insertSubmittingTransferIn(service, tx, values));
}

/** `insertSubmittingTransfer` inside the caller's transaction (several rows written together). */
export async function insertSubmittingTransferIn(
  service: OutboxContext,
  tx: Db,
  values: SubmittingTransfer,
): Promise<TransferRow> {
  const row = submittingTransferRow(values);
  await tx.insert(service.db.tables.transfers).values(row);
  return row;
}

/** The row a transfer starts as: `submitting`, nothing sent, no signature, failure or hold yet. */
export function submittingTransferRow(values: SubmittingTransfer): TransferRow {
  return {
    ...values,
    ...TRANSFER_STATES.submitting,
    txSignature: null,
    signatures: "[]",
    failureCode: null,
    holdId: null,
    confirmedAt: null,
  };
}

/**
 * The funds-moving transaction landed: `submitted`, `transfer.initiated`, and the key's usage.
 * Also repairs a row that crash recovery wrongly judged `not_landed` (a slow submission from
 * another process landed after all). Returns the row as it is now (unchanged if already moved on).
 */
export async function markSubmitted(
  service: OutboxContext,
  transferId: string,
  input: SubmittedInput,
): Promise<TransferRow> {
  return service.db.transaction((tx) => markSubmittedIn(service, tx, transferId, input));
}

export interface SubmittedInput {
  readonly signature: string;
  readonly signatures: readonly string[];
  readonly usage: TransferUsage;
}

/** `markSubmitted` inside the caller's transaction `tx`. */
export async function markSubmittedIn(
  service: OutboxContext,
  tx: Db,
  transferId: string,
  input: SubmittedInput,
): Promise<TransferRow> {
  const updated = await moveTransfer(service, tx, transferId, {
    from: ["submitting", "not_landed"],
    to: "submitted",
    set: {
      txSignature: input.signature,
      signatures: JSON.stringify(input.signatures),
      failureCode: null,
    },
  });
  if (updated === undefined) return currentRow(tx, service, transferId);
  await recordTransferEvent(service, tx, "transfer.initiated", updated);
  await recordTransferUsage(service, tx, input.usage);
  return updated;
}

/**
 * Nothing moved: `failed` (settled) with `failure_code`. `fireEvent` is false for a transfer the
 * request refused at once (the caller got the 4xx; the transfer was never initiated).
 */
export async function markFailed(
  service: OutboxContext,
  transferId: string,
  input: FailedInput,
): Promise<TransferRow> {
  return service.db.transaction((tx) => markFailedIn(service, tx, transferId, input));
}

export interface FailedInput {
  /** The phase the row leaves (`settled` only for a confirmed transfer the chain later reverted). */
  readonly from: "submitting" | "submitted" | "settled";
  readonly failureCode: string;
  readonly fireEvent: boolean;
  readonly signatures?: readonly string[];
}

/** `markFailed` inside the caller's transaction `tx`. */
export async function markFailedIn(
  service: OutboxContext,
  tx: Db,
  transferId: string,
  input: FailedInput,
): Promise<TransferRow> {
  const updated = await moveTransfer(service, tx, transferId, {
    // Only a confirmed transfer can be reverted; a settled failure stays as it is.
    from: [input.from === "settled" ? "confirmed" : input.from],
    to: input.failureCode === NOT_LANDED ? "not_landed" : "failed",
    set: {
      failureCode: input.failureCode,
      ...(input.signatures === undefined ? {} : { signatures: JSON.stringify(input.signatures) }),
    },
  });
  if (updated === undefined) return currentRow(tx, service, transferId);
  if (input.fireEvent) await recordTransferEvent(service, tx, "transfer.failed", updated);
  return updated;
}

/**
 * The funds-moving transaction reached `confirmed` commitment: `confirmed`, `transfer.confirmed`,
 * inside the caller's transaction `tx`, with the time the chain confirmed it (its block's). Only the
 * indexer calls this: it is the one writer of confirmation.
 */
export async function markConfirmedIn(
  service: OutboxContext,
  tx: Db,
  transferId: string,
  confirmedAt: string,
): Promise<TransferRow> {
  const updated = await moveTransfer(service, tx, transferId, {
    from: ["submitted"],
    to: "confirmed",
    set: { confirmedAt },
  });
  if (updated === undefined) return currentRow(tx, service, transferId);
  await recordTransferEvent(service, tx, "transfer.confirmed", updated);
  return updated;
}

/** A row's signature list (its JSON `signatures`) with `signature` appended once. */
export function withSignature(signaturesJson: string, signature: string | null): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(signaturesJson);
  } catch {
    parsed = [];
  }
  const list = Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === "string") : [];
  return signature === null || list.includes(signature) ? list : [...list, signature];
}

/** Unix seconds (the cluster clock) as the service writes timestamps. */
export function isoOfUnixSeconds(seconds: bigint): string {
  return new Date(Number(seconds) * 1000).toISOString();
}

export async function currentRow(tx: Db, service: OutboxContext, transferId: string): Promise<TransferRow> {
  const [row] = await tx
    .select()
    .from(service.db.tables.transfers)
    .where(eq(service.db.tables.transfers.id, transferId));
  if (row === undefined) throw new Error(`transfer ${transferId} vanished`);
  return row;
}
