/**
 * The owner's pending approvals (spec 4.8): its agents' holds that can still be
 * decided — status `pending_approval` and the window still open by the cluster's clock (an expired
 * one leaves the list at once, even before the expiry job marks it). Oldest request first.
 */

import type { AccountRow } from "@cpay/ledger";
import type { TPendingList } from "@cpay/sdk/api";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";
import { clusterNowIso } from "./cluster-time";
import { pendingItemView } from "./hold-view";

/** What `owner` may approve or reject now. */
export async function listPendingApprovals(
  service: ServiceContext,
  owner: AccountRow,
): Promise<TPendingList> {
  const { holds, accounts } = service.db.tables;
  const now = await clusterNowIso(service);
  const rows = await service.db.read((db) =>
    db
      .select()
      .from(holds)
      .where(
        and(
          eq(holds.ownerAccountId, owner.id),
          eq(holds.status, "pending_approval"),
          gt(holds.expiresAt, now),
        ),
      )
      .orderBy(asc(holds.requestedAt), asc(holds.id)),
  );
  if (rows.length === 0) return { pending: [] };
  const agentIds = [...new Set(rows.map((row) => row.agentAccountId))];
  const agents = await service.db.read((db) =>
    db
      .select({ id: accounts.id, handle: accounts.handle })
      .from(accounts)
      .where(inArray(accounts.id, agentIds)),
  );
  const handleOf = new Map(agents.map((agent) => [agent.id, agent.handle]));
  return {
    pending: rows.map((row) => pendingItemView(row, handleOf.get(row.agentAccountId) ?? row.agentAccountId)),
  };
}
