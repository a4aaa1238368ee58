/**
 * The hold an owner asks to decide, with the checks every decision makes first:
 * unknown or another owner's id -> `404 transaction_not_found` (existence is not revealed);
 * already approved or rejected -> `409 transaction_not_pending`; expired (by status, or by the
 * cluster's clock before the expiry job caught up) -> `409 transaction_expired`.
 */

import type { AccountRow, HoldRow } from "@cpay/ledger";
import { and, eq } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { windowHasPassed } from "./cluster-time";

export interface LoadedHold {
  readonly row: HoldRow;
  /** The agent that asked for the transfer. */
  readonly agent: AccountRow;
}

/** The hold `transactionId` of `owner`'s agents, as it is now (no status checks). */
export async function loadHold(
  service: ServiceContext,
  owner: AccountRow,
  transactionId: string,
): Promise<LoadedHold> {
  const { holds, accounts } = service.db.tables;
  const [row] = await service.db.read((db) =>
    db
      .select()
      .from(holds)
      .where(and(eq(holds.id, transactionId), eq(holds.ownerAccountId, owner.id))),
  );
  if (row === undefined) {
    throw new ApiError("transaction_not_found", `no pending transaction ${transactionId}`, "transaction_id");
  }
  const [agent] = await service.db.read((db) =>
    db.select().from(accounts).where(eq(accounts.id, row.agentAccountId)),
  );
  if (agent === undefined) throw new Error(`hold ${row.id} names a missing agent`);
  return { row, agent };
}

/** Loads the transaction and refuses unless it can be decided now (see the module doc). */
export async function loadDecidableHold(
  service: ServiceContext,
  owner: AccountRow,
  transactionId: string,
): Promise<LoadedHold> {
  const held = await loadHold(service, owner, transactionId);
  await refuseUndecidable(service, held.row);
  return held;
}

/** Throws the 409 a decision of `row` gets now, if any. */
export async function refuseUndecidable(service: ServiceContext, row: HoldRow): Promise<void> {
  if (
    row.status === "expired" ||
    (row.status === "pending_approval" && (await windowHasPassed(service, row.expiresAt)))
  ) {
    throw transactionExpired();
  }
  if (row.status !== "pending_approval") throw transactionNotPending(row.status);
}

/** `409 transaction_expired`: the approval window has passed (spec 4.7). */
export function transactionExpired(): ApiError {
  return new ApiError(
    "transaction_expired",
    "the approval window of this transaction has passed",
    "transaction_id",
  );
}

/** `409 transaction_not_pending`: already approved or rejected (`status` says which, or how). */
export function transactionNotPending(status: string): ApiError {
  return new ApiError(
    "transaction_not_pending",
    `the transaction was already decided (${status})`,
    "transaction_id",
  );
}
