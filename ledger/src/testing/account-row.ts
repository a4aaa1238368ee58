/** Test-only: an account row as a test needs it, every column it does not name at its empty default. */
import type { AccountRow } from "../db/rows";

/** A verified account named by `fields` (id, handle, type, key), created now; no owner, agent or policy. */
export function accountRowOf(
  fields: Pick<AccountRow, "id" | "handle" | "type" | "publicKey"> & Partial<AccountRow>,
): AccountRow {
  return {
    kycStatus: "verified",
    ownerAccountId: null,
    agentName: null,
    agentSigner: null,
    agentCustody: null,
    policyId: null,
    createdAt: new Date().toISOString(),
    ...fields,
  };
}
