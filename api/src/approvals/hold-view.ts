/** Holds as the API returns them (spec 2.5, 4.7): the amount only sealed to the owner. */

import type { HoldRow } from "@cpay/ledger";
import type { TAgentTransaction, TPendingList } from "@cpay/sdk/api";

type PendingItem = TPendingList["pending"][number];

/** An item of the pending list: who asked to pay whom, when, and until when it can be approved. */
export function pendingItemView(row: HoldRow, agentHandle: string): PendingItem {
  return {
    transaction_id: row.id,
    agent: agentHandle,
    to: row.to,
    confidential: row.confidential,
    requested_at: row.requestedAt,
    expires_at: row.expiresAt,
    sealed_amount: row.sealedAmount,
  };
}

/** The hold's state after a decision (what approve and reject answer). */
export function holdView(row: HoldRow, agentHandle: string): TAgentTransaction {
  return {
    ...pendingItemView(row, agentHandle),
    status: row.status as TAgentTransaction["status"],
    transfer_id: row.transferId,
    decided_at: row.decidedAt,
    tx_signature: row.txSignature,
  };
}
