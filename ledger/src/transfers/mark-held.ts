/**
 * The transition `submitting -> held` (transfer-transitions.ts has the others): the program held an
 * agent's transfer for its owner. One DB transaction writes the `holds` row the owner
 * approves or rejects (times from the on-chain hold, not from this clock), moves the transfer to
 * `held`, and records `agent.transaction.pending_approval` for the owner (spec 3.2, 6.1).
 */
import type { Hold } from "@cpay/sdk/agent-confidential";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/database";
import type { AccountRow, TransferRow } from "../db/rows";
import { holdRequestedFact } from "../events/hold-events";
import { type OutboxContext, recordEvent } from "../events/record-event";
import { holdTransactionId } from "../ids";
import { currentRow, isoOfUnixSeconds, moveTransfer } from "./transfer-transitions";

/**
 * The program held an agent's transfer for its owner: the `holds` row (times from the
 * on-chain hold), the transfer `held`, and `agent.transaction.pending_approval` delivered to the
 * owner. Returns both rows as they are now.
 */
export async function markHeld(
  service: OutboxContext,
  transferId: string,
  input: HeldInput,
): Promise<HeldOutcome> {
  return service.db.transaction((tx) => markHeldIn(service, tx, transferId, input));
}

export interface HeldInput {
  readonly agent: AccountRow;
  /** The on-chain hold's address and times (read from its account, or from `TransactionHeld`). */
  readonly hold: Pick<Hold, "address" | "requestedAt" | "expiresAt">;
  readonly signature: string;
  readonly signatures: readonly string[];
  /**
   * The held amount sealed from the agent to its owner, bound to the hold's id
   * (`@cpay/sdk/sealed`); absent when the writer never knew the amount (a hold found on chain).
   */
  readonly sealedAmount?: string | null;
}

export interface HeldOutcome {
  readonly transfer: TransferRow;
  readonly transactionId: string | null;
  readonly expiresAt: string | null;
}

/** `markHeld` inside the caller's transaction `tx`. */
export async function markHeldIn(
  service: OutboxContext,
  tx: Db,
  transferId: string,
  input: HeldInput,
): Promise<HeldOutcome> {
  const { holds } = service.db.tables;
  const { agent, hold } = input;
  const transactionId = holdTransactionId(hold.address);
  const expiresAt = isoOfUnixSeconds(hold.expiresAt);
  const updated = await moveTransfer(service, tx, transferId, {
    from: ["submitting", "not_landed"],
    to: "held",
    set: {
      holdId: transactionId,
      txSignature: input.signature,
      signatures: JSON.stringify(input.signatures),
      failureCode: null,
    },
  });
  if (updated === undefined) {
    // Another observer (the indexer, crash recovery) recorded the hold first, without the amount it
    // never knew: the request that did know it adds the sealed amount, once.
    if (input.sealedAmount != null) {
      await tx
        .update(holds)
        .set({ sealedAmount: input.sealedAmount })
        .where(
          and(eq(holds.transferId, transferId), eq(holds.id, transactionId), isNull(holds.sealedAmount)),
        );
    }
    const transfer = await currentRow(tx, service, transferId);
    const [held] = await tx
      .select({ expiresAt: holds.expiresAt })
      .from(holds)
      .where(eq(holds.transferId, transferId));
    return { transfer, transactionId: transfer.holdId, expiresAt: held?.expiresAt ?? null };
  }
  await tx.insert(holds).values({
    id: transactionId,
    agentAccountId: agent.id,
    ownerAccountId: agent.ownerAccountId ?? agent.id,
    transferId,
    holdAddress: hold.address,
    to: updated.to,
    confidential: updated.confidential,
    status: "pending_approval",
    requestedAt: isoOfUnixSeconds(hold.requestedAt),
    expiresAt,
    decidedAt: null,
    txSignature: null,
    sealedAmount: input.sealedAmount ?? null,
  });
  await recordEvent(service, tx, holdRequestedFact(agent, updated, transactionId, input.signature));
  return { transfer: updated, transactionId, expiresAt };
}
