/** Every account, oldest first, for the operator's list (agents included, under their owner's handle). */
import { asc } from "drizzle-orm";
import type { AccountRow } from "../db/rows";
import type { ServiceContext } from "../service-context";

export async function listAccounts(service: ServiceContext): Promise<AccountRow[]> {
  const { accounts } = service.db.tables;
  return service.db.read((db) =>
    db.select().from(accounts).orderBy(asc(accounts.createdAt), asc(accounts.id)),
  );
}
