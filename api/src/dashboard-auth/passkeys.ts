/**
 * An account's passkeys as its sessions manage them: list, revoke (its sessions end and its wrapped
 * secret is erased in the same transaction, and it can no longer sign in) and the wrapped secret, which only a session of that
 * same passkey sets (only that passkey's PRF output unwraps it).
 */
import type { PasskeyRow } from "@cpay/ledger";
import type { TPasskey } from "@cpay/sdk/api";
import { and, asc, eq, isNull } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { type DashboardSession, isoAt } from "./sessions";

export function passkeyView(row: PasskeyRow): TPasskey {
  return {
    passkey_id: row.id,
    name: row.name,
    created_at: row.createdAt,
    last_used_at: row.lastUsedAt,
    revoked_at: row.revokedAt,
  };
}

export async function listPasskeys(service: ServiceContext, accountId: string): Promise<TPasskey[]> {
  const { passkeys } = service.db.tables;
  const rows = await service.db.read((db) =>
    db
      .select()
      .from(passkeys)
      .where(and(eq(passkeys.accountId, accountId), isNull(passkeys.revokedAt)))
      .orderBy(asc(passkeys.createdAt)),
  );
  return rows.map(passkeyView);
}

const notFound = () =>
  new ApiError("passkey_not_found", "no live passkey with this id for this account", "passkey_id");

/** Revokes one of the account's passkeys and ends its sessions, together. */
export async function revokePasskey(
  service: ServiceContext,
  accountId: string,
  passkeyId: string,
): Promise<TPasskey> {
  const { passkeys, sessions } = service.db.tables;
  const now = isoAt(service.clock());
  const revoked = await service.db.transaction(async (tx) => {
    const [row] = await tx
      .update(passkeys)
      // The secret wrapped under it goes with it: only this passkey could unwrap it, and a revoked
      // passkey's row must not keep it for a backup (or an attacker holding the authenticator).
      .set({ revokedAt: now, wrappedSecret: null })
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.accountId, accountId), isNull(passkeys.revokedAt)))
      .returning();
    if (row === undefined) return undefined;
    await tx
      .update(sessions)
      .set({ endedAt: now, endReason: "passkey_revoked" })
      .where(and(eq(sessions.passkeyId, passkeyId), isNull(sessions.endedAt)));
    return row;
  });
  if (revoked === undefined) throw notFound();
  return passkeyView(revoked);
}

/** Stores (or clears, with null) the wrapped secret of the session's own passkey. */
export async function setWrappedSecret(
  service: ServiceContext,
  session: DashboardSession,
  passkeyId: string,
  wrappedSecret: string | null,
): Promise<{ passkey_id: string; wrapped_secret: string | null }> {
  if (passkeyId !== session.passkey.id) {
    // Another passkey's PRF output could not unwrap it: a session sets only its own passkey's.
    throw new ApiError(
      "passkey_not_found",
      "a session sets the wrapped secret of its own passkey only",
      "passkey_id",
    );
  }
  const { passkeys } = service.db.tables;
  const [row] = await service.db.transaction((tx) =>
    tx
      .update(passkeys)
      .set({ wrappedSecret })
      .where(and(eq(passkeys.id, passkeyId), isNull(passkeys.revokedAt)))
      .returning(),
  );
  if (row === undefined) throw notFound();
  return { passkey_id: row.id, wrapped_secret: row.wrappedSecret };
}
