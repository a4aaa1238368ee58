/**
 * `403 kyc_required` (spec 4.9, 4.10, and transfers): identity verification is complete at
 * `verified` or `enhanced`. An agent's verification is its owner's.
 */

import type { AccountRow } from "@cpay/ledger";
import { eq } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";

const VERIFIED = new Set(["verified", "enhanced"]);

export async function requireKyc(service: ServiceContext, account: AccountRow): Promise<void> {
  let status = account.kycStatus;
  if (account.type === "agent" && account.ownerAccountId !== null) {
    const ownerId = account.ownerAccountId;
    const { accounts } = service.db.tables;
    const [owner] = await service.db.read((db) =>
      db.select({ kycStatus: accounts.kycStatus }).from(accounts).where(eq(accounts.id, ownerId)),
    );
    status = owner?.kycStatus ?? "unverified";
  }
  if (!VERIFIED.has(status)) {
    throw new ApiError("kyc_required", `identity verification is not completed (kyc_status: ${status})`);
  }
}
