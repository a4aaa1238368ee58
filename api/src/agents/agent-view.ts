/** An agent's account row as the API returns it (spec 2.3). */

import type { AccountRow } from "@cpay/ledger";
import type { TAgent } from "@cpay/sdk/api";

/**
 * The agent resource: its id, `@owner/name` handle, PDA address and policy id. `status` is always
 * `active`, the only agent state the spec gives (an agent's row exists only once it was created).
 */
export function agentView(row: AccountRow): TAgent {
  if (row.policyId === null) throw new Error(`account ${row.id} is not an agent (no policy id)`);
  return {
    account_id: row.id,
    handle: row.handle,
    public_key: row.publicKey,
    status: "active",
    spend_policy_id: row.policyId,
    custody: row.agentCustody === "self" ? "self" : "service",
  };
}
