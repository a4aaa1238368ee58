/**
 * The outbox facts of a transfer (spec 6): `transfer.initiated`, `transfer.confirmed`,
 * `transfer.failed`. Each is recorded inside the transaction that changes the row it describes,
 * once per transfer (`fact_key` = `<type>:<transfer id>`). Payloads follow spec 6.2 — the sender's
 * handle, `direction: "sent"`, the recipient as given, asset, confidential flag, signature — plus the
 * transfer id, and never an amount.
 *
 * Delivered to the account the event concerns: the sending account, which for an agent's transfer
 * is the agent (its handle is the payload's `account`). Webhook delivery covers an owner's agents
 * (spec 6: "the account or any agent beneath it").
 */
import type { Db } from "../db/database";
import type { TransferRow } from "../db/rows";
import { type EventType, type OutboxContext, recordEvent } from "../events/record-event";

export type TransferEventType = Extract<EventType, `transfer.${string}`>;

/** Records `type` for `transfer` (as it is after the change) inside `tx`. */
export async function recordTransferEvent(
  service: OutboxContext,
  tx: Db,
  type: TransferEventType,
  transfer: TransferRow,
): Promise<void> {
  await recordEvent(service, tx, {
    type,
    accountId: transfer.accountId,
    resourceId: transfer.id,
    factKey: `${type}:${transfer.id}`,
    payload: {
      account: transfer.fromHandle,
      direction: "sent",
      counterparty: transfer.to,
      asset: transfer.asset,
      confidential: transfer.confidential,
      tx_signature: transfer.txSignature,
      transfer_id: transfer.id,
    },
  });
}
