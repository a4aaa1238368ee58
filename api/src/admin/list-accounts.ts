/** Every account, oldest first, for the operator's list (agents included, under their owner's handle). */

import type { AccountRow } from "@cpay/ledger";
import { asc } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";

export async function listAccounts(service: ServiceContext): Promise<AccountRow[]> {
  const { accounts } = service.db.tables;
  return service.db.read((db) =>
    db.select().from(accounts).orderBy(asc(accounts.createdAt), asc(accounts.id)),
  );
}
