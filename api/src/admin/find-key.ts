/** An API key and the account it belongs to, by key id (`key_...`), for usage and revocation. */

import type { AccountRow, ApiKeyRow } from "@cpay/ledger";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";
import { AdminError } from "./admin-error";

const KEY_ID = /^key_[a-z2-7]{26}$/;

/** The key and its account; AdminError `invalid_request` for a malformed id, `not_found` for an unknown one. */
export async function keyById(
  service: ServiceContext,
  keyId: string,
): Promise<{ readonly key: ApiKeyRow; readonly account: AccountRow }> {
  if (!KEY_ID.test(keyId))
    throw new AdminError("invalid_request", `not a key id (key_<26 characters>): ${keyId}`);
  const { apiKeys, accounts } = service.db.tables;
  const found = await service.db.read(async (db) => {
    const [key] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    if (key === undefined) return null;
    const [account] = await db.select().from(accounts).where(eq(accounts.id, key.accountId));
    return account === undefined ? null : { key, account };
  });
  if (found === null) throw new AdminError("not_found", `no key ${keyId}`);
  return found;
}
