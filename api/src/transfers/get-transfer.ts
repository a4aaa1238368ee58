/**
 * `GET /v1/transfers/{transfer_id}` (spec 4.2). A key sees the transfers its account sent, and
 * those it received once confirmed (visible-transfers.ts): any other transfer — including, for an
 * owner, its agents' — is `404 transfer_not_found`, exactly like one that does not exist, so ids
 * reveal nothing. (An owner reads its agents' activity through its agents' events and the
 * pending-approval list.)
 */

import type { AccountRow } from "@cpay/ledger";
import type { TTransferDetail } from "@cpay/sdk/api";
import { and, eq } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { approvalsOf, transferDetailView } from "./transfer-view";
import { visibleTransfers } from "./visible-transfers";

/** The caller's transfer `transferId`, or `404 transfer_not_found`. */
export async function getTransfer(
  service: ServiceContext,
  account: AccountRow,
  transferId: string,
): Promise<TTransferDetail> {
  const { transfers } = service.db.tables;
  const [row] = await service.db.read((db) =>
    db
      .select()
      .from(transfers)
      .where(and(eq(transfers.id, transferId), visibleTransfers(service, account))),
  );
  if (row === undefined) {
    throw new ApiError("transfer_not_found", "no transfer with this id for this account", "transfer_id");
  }
  const approvals = await approvalsOf(service, [row]);
  return transferDetailView(row, approvals.get(row.id) ?? null, account);
}
