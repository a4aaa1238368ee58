/**
 * The program held an agent's transfer (`TransactionHeld`): the transfer is `held` with a
 * `holds` row for the owner and `agent.transaction.pending_approval`, through the
 * API's own transition (mark-held). A hold with no row (an agent that signs itself) gets one; its
 * recipient comes from the hold's account, read before the database transaction.
 *
 * The hold moves a row only when it is the row's: the event's agent PDA is the row's account and,
 * when the hold's account could still be read, its destination and mint are the row's
 * (`isTransferOf`). A hold already closed when the indexer read it is bound by its agent alone:
 * its approval's `TransferExecuted` is checked in full before anything confirms.
 */
import {
  type AccountRow,
  accountByAddress,
  isTransferOf,
  markHeldIn,
  NOT_LANDED,
  type TransferRow,
  withSignature,
} from "@cpay/ledger";
import type { Db } from "@cpay/ledger/database";
import { eq } from "drizzle-orm";
import type { ApplyContext } from "./apply-context";
import { foundTransferRow, insertFoundTransfer } from "./found-transfer";
import type { TransferHeldFact } from "./observed-fact";

/**
 * Applies the fact; returns the `tx_...` id, or null when it holds no transfer of a service agent.
 * `seenAt` (unix ms): when the indexer saw it, the latest a transfer found here can have been made.
 */
export async function applyTransferHeld(
  ctx: ApplyContext,
  tx: Db,
  fact: TransferHeldFact,
  seenAt: number,
): Promise<string | null> {
  const { transfers } = ctx.db.tables;
  const { signature, blockTime } = fact.position;
  const agent = await accountByAddress(ctx, tx, fact.agent);
  if (agent === undefined || agent.type !== "agent") return null;
  let [row] = await tx.select().from(transfers).where(eq(transfers.id, fact.transferId));
  const found = row === undefined;
  if (row === undefined) {
    row = await foundTransferRow(ctx, tx, {
      transferId: fact.transferId,
      sender: agent,
      recipientAddress: fact.recipient ?? fact.hold?.destination ?? "unknown",
      recipientHandle: fact.hold?.recipientHandle ?? null,
      mint: fact.hold?.mint ?? ctx.usdgMint,
      confidential: fact.hold?.confidential ?? false,
      blockTime,
      seenAt,
    });
  }
  if (!(await holdsTransfer(ctx, row, agent, fact))) return null;
  if (found) row = await insertFoundTransfer(ctx, tx, row);
  if (row.phase !== "submitting" && row.failureCode !== NOT_LANDED) return row.holdId;
  const held = await markHeldIn(ctx, tx, row.id, {
    agent,
    hold: { address: fact.pending as never, requestedAt: blockTime, expiresAt: fact.expiresAt },
    signature,
    signatures: withSignature(row.signatures, signature),
  });
  return held.transactionId;
}

async function holdsTransfer(
  ctx: ApplyContext,
  row: TransferRow,
  agent: AccountRow,
  fact: TransferHeldFact,
): Promise<boolean> {
  if (row.accountId !== agent.id) return false;
  const { hold } = fact;
  if (hold === null) return true;
  if (hold.agent !== fact.agent) return false;
  return isTransferOf(row, agent, ctx.usdgMint, {
    by: "agent",
    sender: fact.agent,
    source: hold.source,
    destination: hold.destination,
    destinationOwner: fact.recipient,
    mint: hold.mint,
    confidential: hold.confidential,
  });
}
