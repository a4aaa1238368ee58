/**
 * Listing and revoking keys, and their usage (spec section 5.6): request count, last use, and the
 * total transferred as an ElGamal ciphertext under the account's key — the service stores and shows
 * only the ciphertext; the account holder decrypts it with `decryptEncryptedTotal` and its secret.
 */

import type { ApiKeyRow } from "@cpay/ledger";
import { nowIso } from "@cpay/ledger/ids";
import { and, asc, eq, isNull } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { forgetCachedKeys } from "./key-lookup";

/** What the dashboard (admin CLI) shows of a key: never its value or hash. */
export interface KeyView {
  readonly id: string;
  readonly name: string;
  readonly environment: string;
  readonly display: string;
  readonly created_at: string;
  readonly last_used_at: string | null;
  readonly revoked_at: string | null;
  readonly request_count: number;
  readonly transfer_count: number;
  /** Base64 ElGamal running total (sdk `encrypted-total`), readable only with the holder's secret. */
  readonly transferred_total_encrypted: string | null;
}

export function viewOfKey(row: ApiKeyRow): KeyView {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    display: `svc_${row.environment}_...${row.last4}`,
    created_at: row.createdAt,
    last_used_at: row.lastUsedAt,
    revoked_at: row.revokedAt,
    request_count: row.requestCount,
    transfer_count: row.transferCount,
    transferred_total_encrypted: row.transferredTotal,
  };
}

export async function listApiKeys(service: ServiceContext, accountId: string): Promise<KeyView[]> {
  const { apiKeys } = service.db.tables;
  const rows = await service.db.read((db) =>
    db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(asc(apiKeys.createdAt)),
  );
  return rows.map(viewOfKey);
}

/** Revokes a key; effective for the next request (authentication reads it every time). */
export async function revokeApiKey(service: ServiceContext, keyId: string): Promise<KeyView | null> {
  const { apiKeys } = service.db.tables;
  const [row] = await service.db.transaction((tx) =>
    tx
      .update(apiKeys)
      .set({ revokedAt: nowIso() })
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
      .returning(),
  );
  forgetCachedKeys(service.db);
  return row === undefined ? null : viewOfKey(row);
}

/** One of the account's keys, or null (another account's key is as unknown as no key). */
export async function keyOfAccount(
  service: ServiceContext,
  accountId: string,
  keyId: string,
): Promise<KeyView | null> {
  const { apiKeys } = service.db.tables;
  const [row] = await service.db.read((db) =>
    db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId))),
  );
  return row === undefined ? null : viewOfKey(row);
}

/**
 * Revokes one of the account's keys (`/v1/keys`, a dashboard session); a key already revoked is
 * answered as it stands. Another account's key is `404 key_not_found`.
 */
export async function revokeAccountKey(
  service: ServiceContext,
  accountId: string,
  keyId: string,
): Promise<KeyView> {
  const found = await keyOfAccount(service, accountId, keyId);
  if (found === null)
    throw new ApiError("key_not_found", "no API key with this id for this account", "key_id");
  return (await revokeApiKey(service, keyId)) ?? ((await keyOfAccount(service, accountId, keyId)) as KeyView);
}

/**
 * Deletes a key whose creating request died before answering (idempotency recovery): its value was
 * never shown, so nobody holds it, and the retry makes the key the caller will see. A key that was
 * somehow used is revoked instead, keeping its usage. Nothing when absent, or when it is neither the
 * account's own nor one it issued to one of its agents.
 */
export async function discardUndeliveredKey(
  service: ServiceContext,
  accountId: string,
  keyId: string,
): Promise<void> {
  const { accounts, apiKeys } = service.db.tables;
  const mine = eq(apiKeys.id, keyId);
  await service.db.transaction(async (tx) => {
    const [key] = await tx.select({ holder: apiKeys.accountId }).from(apiKeys).where(mine);
    if (key === undefined) return;
    if (key.holder !== accountId) {
      const [agent] = await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(eq(accounts.id, key.holder), eq(accounts.ownerAccountId, accountId)));
      if (agent === undefined) return;
    }
    const deleted = await tx
      .delete(apiKeys)
      .where(and(mine, isNull(apiKeys.lastUsedAt)))
      .returning({ id: apiKeys.id });
    if (deleted.length === 0)
      await tx
        .update(apiKeys)
        .set({ revokedAt: nowIso() })
        .where(and(mine, isNull(apiKeys.revokedAt)));
  });
  forgetCachedKeys(service.db);
}
