/**
 * `Authorization: Bearer <key>` -> the calling key and its account (spec section 5). Missing,
 * malformed, unknown and revoked keys are all `401 unauthorized` (the message says which, never
 * whether another account exists). Each environment authenticates against its own database only
 * (front-router.ts sends `svc_live_` keys to the live one when it exists); a `svc_live_` key found in
 * the test environment's database, possible only while no live environment is configured, is
 * refused with `403 live_mode_unavailable`. The key is looked up on every request (never cached), so a
 * revocation is effective for the very next one; the requests it gets carried out count toward its
 * usage (mount-routes.ts, usage-stamps.ts).
 */
import type { AccountRow, ApiKeyRow } from "@cpay/ledger";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import type { DashboardSession } from "../dashboard-auth/sessions";
import { environmentOfKey, hashApiKey } from "../keys/api-key-format";
import { keyLookupOf } from "../keys/key-lookup";

/** Who called: an API key, or a dashboard session (session-auth.ts); never both. */
export interface Caller {
  readonly account: AccountRow;
  /** The calling key; null for a dashboard session. */
  readonly apiKey: ApiKeyRow | null;
  /** The calling dashboard session; null for an API key. */
  readonly session: DashboardSession | null;
}

/** The calling key's id, for what only a key may do (an agent's relay: agents never have sessions). */
export function keyIdOf(caller: Caller): string {
  if (caller.apiKey === null)
    throw new ApiError("agent_key_required", "only an agent's own API key can use this endpoint");
  return caller.apiKey.id;
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
  const prefix = match === null ? null : environmentOfKey(match[1] as string);
  if (match === null || prefix === null) {
    throw new ApiError(
      "unauthorized",
      "malformed API key (expected `svc_test_...` or `svc_live_...`)",
      "authorization",
    );
  }
  const found = await keyLookupOf(service.db)(hashApiKey(match[1] as string));
  if (found === null) throw new ApiError("unauthorized", "unknown or revoked API key", "authorization");
  if (found.apiKey.environment !== service.environment) {
    if (found.apiKey.environment === "live") {
      throw new ApiError(
        "live_mode_unavailable",
        "svc_live_ keys reach Solana mainnet-beta, which this service cannot reach; use a svc_test_ key",
        "authorization",
      );
    }
    // A key of the other environment in this database: never issued so, and never honoured.
    throw new ApiError("unauthorized", "unknown or revoked API key", "authorization");
  }
  return { ...found, session: null };
}
