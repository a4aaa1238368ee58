/**
 * `Authorization: Bearer <key>` -> the calling key and its account (spec section 5). Missing,
 * malformed, unknown and revoked keys are all `401 unauthorized` (the message says which, never
 * whether another account exists). A `svc_live_` key is refused with `403 live_mode_unavailable`
 * unless mainnet-beta is configured. Each accepted request stamps `last_used_at` and counts
 * toward the key's usage, in the same statement that proves the key is still unrevoked, so a
 * revocation is effective for the very next request.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { AccountRow, ApiKeyRow } from "../db/rows";
import { nowIso } from "../ids";
import { environmentOfKey, hashApiKey } from "../keys/api-key-format";
import type { ServiceContext } from "../service-context";
import { ApiError } from "./api-error";

export interface Caller {
  readonly account: AccountRow;
  readonly apiKey: ApiKeyRow;
}

export async function authenticate(service: ServiceContext, header: string | undefined): Promise<Caller> {
  if (header === undefined || header === "") {
    throw new ApiError(
      "unauthorized",
      "missing Authorization header (expected `Bearer <API key>`)",
      "authorization",
    );
  }
  const match = /^Bearer ([^\s]+)$/.exec(header);
  const environment = match === null ? null : environmentOfKey(match[1] as string);
  if (match === null || environment === null) {
    throw new ApiError(
      "unauthorized",
      "malformed API key (expected `svc_test_...` or `svc_live_...`)",
      "authorization",
    );
  }
  const { apiKeys, accounts } = service.db.tables;
  const hash = hashApiKey(match[1] as string);
  const found = await service.db.transaction(async (tx) => {
    const [key] = await tx
      .update(apiKeys)
      .set({ lastUsedAt: nowIso(), requestCount: sql`${apiKeys.requestCount} + 1` })
      .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
      .returning();
    if (key === undefined) return null;
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, key.accountId));
    return account === undefined ? null : { apiKey: key, account };
  });
  if (found === null) throw new ApiError("unauthorized", "unknown or revoked API key", "authorization");
  if (found.apiKey.environment === "live" && service.config.mainnetRpcUrl === null) {
    throw new ApiError(
      "live_mode_unavailable",
      "svc_live_ keys reach Solana mainnet-beta, which this service is not configured for; use a svc_test_ key",
      "authorization",
    );
  }
  return found;
}
