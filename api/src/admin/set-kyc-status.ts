/**
 * Records the outcome of identity verification for a personal or business account (spec 2.2: the
 * values are given, the transitions are not, so any value may follow any other; the verification
 * itself happens outside this service). An agent has no status of its own: it is its owner's.
 * Effective from the next request.
 */

import type { AccountRow } from "@cpay/ledger";
import { eq } from "drizzle-orm";
import type { KycStatus } from "../accounts/create-account";
import type { ServiceContext } from "../core/service-context";
import { forgetCachedKeys } from "../keys/key-lookup";
import { AdminError } from "./admin-error";

/** Sets `kycStatus` and returns the updated account. */
export async function setKycStatus(
  service: ServiceContext,
  account: AccountRow,
  kycStatus: KycStatus,
): Promise<AccountRow> {
  if (account.type === "agent") {
    throw new AdminError(
      "invalid_request",
      `${account.handle} is an agent: its verification is its owner's; set the owner's status instead`,
    );
  }
  const { accounts } = service.db.tables;
  const [updated] = await service.db.transaction((tx) =>
    tx.update(accounts).set({ kycStatus }).where(eq(accounts.id, account.id)).returning(),
  );
  // Authentication may hold this account's row in memory (keys/key-lookup.ts): the new status
  // must gate the very next request.
  forgetCachedKeys(service.db);
  if (updated === undefined) throw new AdminError("not_found", `no account ${account.handle}`);
  return updated;
}
