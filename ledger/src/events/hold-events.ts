/**
 * The outbox facts of an agent's held transfer (spec 6.1 `agent.transaction.*`), delivered to the
 * agent's owner: the hold asked for, approved, rejected. Payloads name the agent (`account`), the
 * recipient, the ids and the signature — never an amount (the contract has none). An expiry fires
 * no `agent.transaction.*` event (the transfer's `transfer.failed` says it).
 */
import type { AccountRow, HoldRow, TransferRow } from "../db/rows";
import type { EventFact } from "./record-event";

/** `agent.transaction.pending_approval`: the program held `transfer` of `agent` as `transactionId`. */
export function holdRequestedFact(
  agent: AccountRow,
  transfer: TransferRow,
  transactionId: string,
  signature: string,
): EventFact<"agent.transaction.pending_approval"> {
  const type = "agent.transaction.pending_approval";
  return {
    type,
    accountId: agent.ownerAccountId ?? agent.id,
    resourceId: transactionId,
    factKey: `${type}:${transactionId}`,
    payload: {
      account: agent.handle,
      direction: "sent",
      counterparty: transfer.to,
      asset: transfer.asset,
      confidential: transfer.confidential,
      tx_signature: signature,
      transaction_id: transactionId,
      transfer_id: transfer.id,
    },
  };
}

/** `agent.transaction.<status>`: the owner decided `held` (as updated) of `agent`, a hold of `asset`. */
export function holdDecidedFact(
  agent: AccountRow,
  held: HoldRow,
  status: "approved" | "rejected",
  asset: string,
): EventFact<"agent.transaction.approved" | "agent.transaction.rejected"> {
  const type = `agent.transaction.${status}` as const;
  return {
    type,
    accountId: held.ownerAccountId,
    resourceId: held.id,
    factKey: `${type}:${held.id}`,
    payload: {
      account: agent.handle,
      direction: "sent",
      counterparty: held.to,
      asset,
      confidential: held.confidential,
      tx_signature: held.txSignature,
      transaction_id: held.id,
      transfer_id: held.transferId,
    },
  };
}
