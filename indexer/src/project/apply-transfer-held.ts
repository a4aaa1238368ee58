/**
 * The program held an agent's transfer (`TransactionHeld`): the transfer is `held` with an
 * `agent_transactions` row for the owner and `agent.transaction.pending_approval`, through the
 * API's own transition (mark-held). A hold with no row (an agent that signs itself) gets one; its
 * recipient comes from the hold's account, read before the database transaction.
 */
import type { Db } from "@cpay/api/database";
import { accountByAddress, markHeldIn, NOT_LANDED, withSignature } from "@cpay/api/records";
import { eq } from "drizzle-orm";
import type { ApplyContext } from "./apply-context";
import { insertFoundTransfer } from "./found-transfer";
import type { TransferHeldFact } from "./observed-fact";

/** Applies the fact; returns the `tx_...` id, or null when the agent is not a service account. */
export async function applyTransferHeld(
  ctx: ApplyContext,
  tx: Db,
  fact: TransferHeldFact,
): Promise<string | null> {
  const { transfers } = ctx.db.tables;
  const { signature, blockTime } = fact.position;
  const agent = await accountByAddress(ctx, tx, fact.agent);
  if (agent === undefined) return null;
  let [row] = await tx.select().from(transfers).where(eq(transfers.id, fact.transferId));
  if (row === undefined) {
    row = await insertFoundTransfer(ctx, tx, {
      transferId: fact.transferId,
      sender: agent,
      recipientAddress: fact.recipient ?? fact.hold?.destination ?? "unknown",
      recipientHandle: fact.hold?.recipientHandle ?? null,
      mint: fact.hold?.mint ?? ctx.usdgMint,
      confidential: fact.hold?.confidential ?? false,
      blockTime,
    });
  }
  if (row.phase !== "submitting" && row.failureCode !== NOT_LANDED) return row.heldTransactionId;
  const held = await markHeldIn(ctx, tx, row.id, {
    agent,
    hold: { address: fact.pending as never, requestedAt: blockTime, expiresAt: fact.expiresAt },
    signature,
    signatures: withSignature(row.signatures, signature),
  });
  return held.transactionId;
}
