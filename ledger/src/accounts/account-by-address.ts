/**
 * The service account behind a wallet or agent PDA, read inside the caller's query handle (a
 * transaction or a read): how a transfer's recipient on chain becomes `@handle` in a record, for
 * the relay and for the indexer alike.
 */
import { eq } from "drizzle-orm";
import type { Database, Db } from "../db/database";
import type { AccountRow } from "../db/rows";

/** Only the tables are read: the API passes its context, the indexer its own. */
type WithTables = { readonly db: Database };

/** The service account whose wallet (or agent PDA) is `address`, if any. */
export async function accountByAddress(
  service: WithTables,
  q: Db,
  address: string,
): Promise<AccountRow | undefined> {
  const { accounts } = service.db.tables;
  const [account] = await q.select().from(accounts).where(eq(accounts.publicKey, address));
  return account;
}

/** A service account's handle for an address, or the address itself. */
export async function nameOfAddress(service: WithTables, q: Db, address: string): Promise<string> {
  return (await accountByAddress(service, q, address))?.handle ?? address;
}
