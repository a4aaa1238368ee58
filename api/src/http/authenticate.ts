/**
 * `Authorization: Bearer <key>` -> the calling key and its account (spec section 5). Missing,
 * malformed, unknown and revoked keys are all `401 unauthorized` (the message says which, never
 * whether another account exists). A `svc_live_` key is refused with `403 live_mode_unavailable`
 * unless mainnet-beta is configured. The key is looked up on every request (never cached), so a
 * revocation is effective for the very next one; accepted requests count toward the key's usage
 * (usage-stamps.ts).
 */
import type { AccountRow, ApiKeyRow } from "@cpay/ledger";
import { environmentOfKey, hashApiKey } from "../keys/api-key-format";
import type { ServiceContext } from "../service-context";
import { ApiError } from "./api-error";
import { keyLookupOf } from "./key-lookup";
import { countRequest } from "./usage-stamps";

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
  const found = await keyLookupOf(service.db)(hashApiKey(match[1] as string));
  if (found === null) throw new ApiError("unauthorized", "unknown or revoked API key", "authorization");
  if (found.apiKey.environment === "live" && !service.config.liveModeAvailable) {
    throw new ApiError(
      "live_mode_unavailable",
      "svc_live_ keys reach Solana mainnet-beta, which this service cannot reach; use a svc_test_ key",
      "authorization",
    );
  }
  countRequest(service.db, found.apiKey.id);
  return found;
}
