/**
 * Funds moved (`ServiceTransferRecorded`, `TransferExecuted`, `ConfidentialTransferExecuted`), at
 * confirmed commitment: the transfer becomes `confirmed` with `confirmed_at` = when the indexer saw
 * it confirmed (`seenIso`, apply-context.ts),
 * through the same transitions as the API (`submitting -> submitted -> settled`), so
 * `transfer.initiated` and `transfer.confirmed` fire once whoever saw them first. A transfer with
 * no row (an agent that signs itself) gets one. The recipient, when it is one of the service's
 * accounts, gets its own `transfer.confirmed` with `direction: "received"` (spec 6: "every
 * transaction involving the account").
 *
 * The transfer id alone never moves a row: the event's signer, token accounts and mint must be the
 * row's (`isTransferOf`, ledger/src/transfers/transfer-binding.ts). An agent's own `transfer_record`,
 * anybody's record reusing a row's id, or an agent's transfer under another row's id is applied to
 * no row (and confirms nothing).
 */
import {
  type AccountRow,
  accountByAddress,
  isTransferOf,
  markConfirmedIn,
  markSubmittedIn,
  NOT_LANDED,
  receivedTransferFact,
  recordEvent,
  type TransferRow,
  withSignature,
} from "@cpay/ledger";
import type { Db } from "@cpay/ledger/database";
import { eq } from "drizzle-orm";
import { type ApplyContext, seenIso } from "./apply-context";
import { foundTransferRow, insertFoundTransfer } from "./found-transfer";
import type { TransferExecutedFact } from "./observed-fact";
import { recordHoldDecision } from "./record-hold-decision";

/**
 * Applies the fact; returns the transfer id, or null when it is no transfer of a service account.
 * `seenAt` (unix ms) is when the indexer saw the transaction at confirmed.
 */
export async function applyTransferExecuted(
  ctx: ApplyContext,
  tx: Db,
  fact: TransferExecutedFact,
  seenAt: number,
): Promise<string | null> {
  const { transfers, accounts } = ctx.db.tables;
  const { signature, blockTime } = fact.position;
  let [row] = await tx.select().from(transfers).where(eq(transfers.id, fact.transferId));
  let sender: AccountRow | undefined;
  if (row === undefined) {
    sender = await accountByAddress(ctx, tx, fact.sender);
    if (sender === undefined) return null;
    const found = await foundTransferRow(ctx, tx, {
      transferId: fact.transferId,
      sender,
      recipientAddress: fact.recipient ?? fact.destination,
      recipientHandle: null,
      mint: fact.mint,
      confidential: fact.confidential,
      blockTime,
      seenAt,
    });
    if (!(await isTransferOf(found, sender, ctx.usdgMint, observedOf(fact)))) return null;
    row = await insertFoundTransfer(ctx, tx, found);
  } else {
    [sender] = await tx.select().from(accounts).where(eq(accounts.id, row.accountId));
    if (sender === undefined) return null;
    if (!(await isTransferOf(row, sender, ctx.usdgMint, observedOf(fact)))) return null;
  }
  if (row.phase === "submitting" || row.failureCode === NOT_LANDED) {
    row = await markSubmittedIn(ctx, tx, row.id, {
      signature,
      signatures: withSignature(row.signatures, signature),
      usage: { apiKeyId: row.apiKeyId, increment: row.usageIncrement },
    });
  }
  if (row.phase === "held" && fact.fromHold) row = await approveHeld(ctx, tx, row, fact, seenAt);
  if (row.phase === "submitted") row = await markConfirmedIn(ctx, tx, row.id, seenIso(seenAt, row.createdAt));
  if (row.status === "confirmed") await recordReceived(ctx, tx, row, fact.recipient ?? row.recipientAddress);
  return row.id;
}

/** The fact as the binding rules read it. */
function observedOf(fact: TransferExecutedFact) {
  return {
    by: fact.by,
    sender: fact.sender,
    source: fact.source,
    destination: fact.destination,
    destinationOwner: fact.recipient,
    mint: fact.mint,
    confidential: fact.confidential,
  };
}

/**
 * The approving instruction emits `TransferExecuted { from_hold }` BEFORE `TransactionApproved`.
 * When the indexer is the first to see an approval (made without the API, or before the API wrote
 * its decision), the hold is still `held` here: record the approval now (the API's own
 * `recordDecision`, guarded by `pending_approval`), so this fact submits and confirms the transfer;
 * the `TransactionApproved` that follows finds it decided and records nothing twice.
 */
async function approveHeld(
  ctx: ApplyContext,
  tx: Db,
  row: TransferRow,
  fact: TransferExecutedFact,
  seenAt: number,
): Promise<TransferRow> {
  const { holds, transfers } = ctx.db.tables;
  if (row.holdId === null) return row;
  const [held] = await tx.select().from(holds).where(eq(holds.id, row.holdId));
  if (held === undefined) return row;
  const decision = { status: "approved" as const, signature: fact.position.signature };
  if (!(await recordHoldDecision(ctx, tx, held, decision, seenAt))) return row;
  const [now] = await tx.select().from(transfers).where(eq(transfers.id, row.id));
  return now ?? row;
}

/**
 * `transfer.confirmed` for a recipient that is a service account (not the sender itself):
 * `recipientAddress` owns the destination the fact was bound to.
 */
async function recordReceived(
  ctx: ApplyContext,
  tx: Db,
  transfer: TransferRow,
  recipientAddress: string,
): Promise<void> {
  const recipient = await accountByAddress(ctx, tx, recipientAddress);
  if (recipient === undefined || recipient.id === transfer.accountId) return;
  await recordEvent(ctx, tx, receivedTransferFact(transfer, recipient));
}
