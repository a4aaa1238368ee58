/**
 * The outbox facts of a transfer (spec 6): `transfer.initiated`, `transfer.confirmed`,
 * `transfer.failed`. Each is recorded inside the transaction that changes the row it describes,
 * once per transfer (`fact_key` = `<type>:<transfer id>`). Payloads follow spec 6.2 — the sender's
 * handle, `direction: "sent"`, the recipient as given, asset, confidential flag, signature — plus the
 * transfer id, and never an amount (the contract, `@cpay/sdk/api` `ZWebhookEvent`, has none).
 *
 * Delivered to the account the event concerns: the sending account, which for an agent's transfer
 * is the agent (its handle is the payload's `account`). Webhook delivery covers an owner's agents
 * (spec 6: "the account or any agent beneath it"). A recipient that is a service account gets its
 * own `transfer.confirmed` (`direction: "received"`, `receivedTransferFact`).
 */
import type { Db } from "../db/database";
import type { AccountRow, TransferRow } from "../db/rows";
import { type EventFact, type EventType, type OutboxContext, recordEvent } from "../events/record-event";

export type TransferEventType = Extract<EventType, `transfer.${string}`>;

/** Records `type` for `transfer` (as it is after the change) inside `tx`. */
export async function recordTransferEvent(
  service: OutboxContext,
  tx: Db,
  type: TransferEventType,
  transfer: TransferRow,
): Promise<void> {
  await recordEvent(service, tx, transferEventFact(type, transfer));
}

/** `type` for the sender of `transfer` (as it is after the change). */
export function transferEventFact(
  type: TransferEventType,
  transfer: TransferRow,
): EventFact<TransferEventType> {
  return {
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
  };
}

/** `transfer.confirmed` for `recipient`, a service account the confirmed `transfer` paid. */
export function receivedTransferFact(
  transfer: TransferRow,
  recipient: AccountRow,
): EventFact<"transfer.confirmed"> {
  return {
    type: "transfer.confirmed",
    accountId: recipient.id,
    resourceId: transfer.id,
    factKey: `transfer.confirmed:${transfer.id}:received`,
    payload: {
      account: recipient.handle,
      direction: "received",
      counterparty: transfer.fromHandle,
      asset: transfer.asset,
      confidential: transfer.confidential,
      tx_signature: transfer.txSignature,
      transfer_id: transfer.id,
    },
  };
}
