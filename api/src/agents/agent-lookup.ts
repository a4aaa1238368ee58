/**
 * Reading agent rows: by handle, by owner, and the one agent a caller may manage. An agent is an
 * `accounts` row of type `agent` whose `owner_account_id` names its owner.
 */

import type { AccountRow } from "@cpay/ledger";
import { and, asc, eq } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";

/** The agent with this `@owner/name` handle, if any. */
export async function findAgentByHandle(
  service: ServiceContext,
  handle: string,
): Promise<AccountRow | undefined> {
  const { accounts } = service.db.tables;
  const [row] = await service.db.read((db) =>
    db
      .select()
      .from(accounts)
      .where(and(eq(accounts.handle, handle), eq(accounts.type, "agent"))),
  );
  return row;
}

/** Every agent of `ownerId`, oldest first (ties broken by id so the order is stable). */
export async function listAgentsOf(service: ServiceContext, ownerId: string): Promise<AccountRow[]> {
  const { accounts } = service.db.tables;
  return service.db.read((db) =>
    db
      .select()
      .from(accounts)
      .where(and(eq(accounts.ownerAccountId, ownerId), eq(accounts.type, "agent")))
      .orderBy(asc(accounts.createdAt), asc(accounts.id)),
  );
}

/**
 * The agent `agentId` for its owner `owner`. An unknown id, or the id of an account that is not an
 * agent, is `404 agent_not_found`; another owner's agent is the spec's `403 not_agent_owner`
 * (spec 4.5, 4.6 name it, so here existence is not hidden).
 */
export async function loadOwnedAgent(
  service: ServiceContext,
  owner: AccountRow,
  agentId: string,
): Promise<AccountRow> {
  const { accounts } = service.db.tables;
  const [row] = await service.db.read((db) => db.select().from(accounts).where(eq(accounts.id, agentId)));
  if (row === undefined || row.type !== "agent") {
    throw new ApiError("agent_not_found", `no agent with id ${agentId}`, "account_id");
  }
  if (row.ownerAccountId !== owner.id) {
    throw new ApiError("not_agent_owner", "the authenticated account does not own this agent", "account_id");
  }
  return row;
}
