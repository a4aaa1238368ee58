/**
 * A transfer row as the API returns it (spec 2.1): never a plaintext amount, asset or memo (the
 * detail view carries them sealed to the two parties only). `approval` is set for the sender of an
 * agent transfer that was held for its owner (the hold's id and the end of its approval
 * window), null otherwise and always for the recipient. `tx_signature` of the detail view is null
 * while the transfer is being submitted and for one that failed before any transaction landed.
 */

import type { AccountRow, HeldOutcome, TransferRow } from "@cpay/ledger";
import type { TTransfer, TTransferDetail, TTransferFees } from "@cpay/sdk/api";
import { inArray } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";

export interface Approval {
  readonly transaction_id: string;
  readonly expires_at: string;
}

/** The fees of a transfer that charged none (every confidential one, every relayed one). */
export const NO_FEES: TTransferFees = { account_opening: "0" };

/**
 * The create response (spec 4.1); only for a row that has its signature. `fees` is what the sender
 * paid besides the amount (account-opening.ts), known to the request that sent it.
 */
export function transferView(row: TransferRow, approval: Approval | null, fees: TTransferFees): TTransfer {
  if (row.txSignature === null) throw new Error(`transfer ${row.id} has no signature to show yet`);
  return {
    transfer_id: row.id,
    status: row.status as TTransfer["status"],
    to: row.to,
    confidential: row.confidential,
    tx_signature: row.txSignature,
    created_at: row.createdAt,
    approval,
    fees,
  };
}

/** The create response of a held agent transfer (`markHeld`'s outcome): with its approval, once recorded. */
export function heldTransferView(held: HeldOutcome, fees: TTransferFees): TTransfer {
  const approval =
    held.transactionId === null || held.expiresAt === null
      ? null
      : { transaction_id: held.transactionId, expires_at: held.expiresAt };
  return transferView(held.transfer, approval, fees);
}

/** The get response and list item (spec 4.2, 4.3), as `viewer` (its sender or its recipient) sees it. */
export function transferDetailView(
  row: TransferRow,
  approval: Approval | null,
  viewer: AccountRow,
): TTransferDetail {
  const direction = row.accountId === viewer.id ? "sent" : "received";
  return {
    transfer_id: row.id,
    status: row.status as TTransferDetail["status"],
    from: row.fromHandle,
    to: row.to,
    confidential: row.confidential,
    tx_signature: row.txSignature,
    created_at: row.createdAt,
    confirmed_at: row.confirmedAt,
    approval: direction === "sent" ? approval : null,
    direction,
    sealed_details: row.sealedDetails,
  };
}

/** The approvals of the held transfers among `rows`, by transfer id (one query). */
export async function approvalsOf(
  service: ServiceContext,
  rows: readonly TransferRow[],
): Promise<ReadonlyMap<string, Approval>> {
  const held = rows.flatMap((row) => (row.holdId === null ? [] : [row.holdId]));
  if (held.length === 0) return new Map();
  const { holds } = service.db.tables;
  const found = await service.db.read((db) =>
    db
      .select({
        id: holds.id,
        transferId: holds.transferId,
        expiresAt: holds.expiresAt,
      })
      .from(holds)
      .where(inArray(holds.id, held)),
  );
  return new Map(found.map((row) => [row.transferId, { transaction_id: row.id, expires_at: row.expiresAt }]));
}
