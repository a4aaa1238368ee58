/**
 * Dashboard sessions: started by an enrollment or a sign-in, found by the hash of the cookie
 * value, ended by idleness (`SESSION_IDLE_MINUTES`, pushed forward on each use), age
 * (`SESSION_MAX_HOURS`), sign-out, sign-out everywhere or the revocation of their passkey. Times
 * come from the service's clock, so the suite moves them without waiting.
 */
import type { AccountRow, PasskeyRow, SessionRow } from "@cpay/ledger";
import type { Db } from "@cpay/ledger/database";
import { newId } from "@cpay/ledger/ids";
import type { TSessionView } from "@cpay/sdk/api";
import { and, eq, isNull } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { csrfTokenOf, environmentOfSessionToken, generateSessionToken, hashToken } from "./secret-tokens";

/** A session as a request holds it: its row, account and passkey, and the cookie value it came with. */
export interface DashboardSession {
  readonly row: SessionRow;
  readonly account: AccountRow;
  readonly passkey: PasskeyRow;
  readonly token: string;
}

export const isoAt = (ms: number): string => new Date(ms).toISOString();

/** Starts a session for `passkey`'s account inside `tx`; the token is for the cookie only. */
export async function startSessionIn(
  service: ServiceContext,
  tx: Db,
  input: { readonly account: AccountRow; readonly passkey: PasskeyRow },
): Promise<DashboardSession> {
  const now = service.clock();
  const { sessionIdleMs, sessionMaxMs } = service.config.dashboard;
  const token = generateSessionToken(service.environment);
  const expiresAt = now + sessionMaxMs;
  const [row] = await tx
    .insert(service.db.tables.sessions)
    .values({
      id: newId("ses"),
      tokenHash: hashToken(token),
      accountId: input.account.id,
      passkeyId: input.passkey.id,
      createdAt: isoAt(now),
      lastSeenAt: isoAt(now),
      idleExpiresAt: isoAt(Math.min(now + sessionIdleMs, expiresAt)),
      expiresAt: isoAt(expiresAt),
    })
    .returning();
  return { row: row as SessionRow, account: input.account, passkey: input.passkey, token };
}

/**
 * The live session of a cookie value (read only). Malformed or unknown: `401 unauthorized`; ended
 * or expired: `401 session_expired`.
 */
export async function findLiveSession(service: ServiceContext, token: string): Promise<DashboardSession> {
  if (environmentOfSessionToken(token) !== service.environment) {
    // Malformed, or of the other environment: never issued by this database.
    throw new ApiError("unauthorized", "malformed or unknown session cookie", "cookie");
  }
  const { sessions, accounts, passkeys } = service.db.tables;
  const [found] = await service.db.read((db) =>
    db
      .select({ row: sessions, account: accounts, passkey: passkeys })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.id, sessions.accountId))
      .innerJoin(passkeys, eq(passkeys.id, sessions.passkeyId))
      .where(eq(sessions.tokenHash, hashToken(token)))
      .limit(1),
  );
  if (found === undefined)
    throw new ApiError("unauthorized", "malformed or unknown session cookie", "cookie");
  const now = service.clock();
  const live =
    found.row.endedAt === null &&
    found.passkey.revokedAt === null &&
    Date.parse(found.row.idleExpiresAt) > now &&
    Date.parse(found.row.expiresAt) > now;
  if (!live) throw expired();
  return { ...found, token };
}

const expired = () => new ApiError("session_expired", "the session has ended; sign in again", "cookie");

/** Pushes the session's idle expiry forward (never past its absolute expiry): it was just used. */
export async function touchSession(
  service: ServiceContext,
  session: DashboardSession,
): Promise<DashboardSession> {
  const { sessions } = service.db.tables;
  const now = service.clock();
  const idleExpiresAt = isoAt(
    Math.min(now + service.config.dashboard.sessionIdleMs, Date.parse(session.row.expiresAt)),
  );
  const [touched] = await service.db.transaction((tx) =>
    tx
      .update(sessions)
      .set({ lastSeenAt: isoAt(now), idleExpiresAt })
      .where(and(eq(sessions.id, session.row.id), isNull(sessions.endedAt)))
      .returning(),
  );
  // Ended by another request between the read and the write.
  if (touched === undefined) throw expired();
  return { ...session, row: touched };
}

/** What the dashboard reads of its session (the wrapped secret read fresh from the passkey). */
export async function sessionView(service: ServiceContext, session: DashboardSession): Promise<TSessionView> {
  const { passkeys } = service.db.tables;
  const [passkey] = await service.db.read((db) =>
    db.select().from(passkeys).where(eq(passkeys.id, session.passkey.id)),
  );
  return viewOf(service, { ...session, passkey: passkey ?? session.passkey });
}

/** The view of a session as it stands in memory (just started). */
export function viewOf(service: ServiceContext, session: DashboardSession): TSessionView {
  const { account, passkey, row } = session;
  return {
    // The service's own: its sessions' cookies name it (`sess_live_`), and findLiveSession refuses others.
    environment: service.environment,
    account: {
      account_id: account.id,
      handle: account.handle,
      type: account.type as "personal" | "business",
    },
    passkey: { passkey_id: passkey.id, name: passkey.name },
    csrf_token: csrfTokenOf(session.token),
    expires_at: row.expiresAt,
    idle_expires_at: row.idleExpiresAt,
    wrapped_secret: passkey.wrappedSecret,
    explorer_transaction_url: service.explorerTransactionUrl,
  };
}

/** Ends one session. */
export async function endSession(service: ServiceContext, session: DashboardSession): Promise<void> {
  const { sessions } = service.db.tables;
  await service.db.transaction((tx) =>
    tx
      .update(sessions)
      .set({ endedAt: isoAt(service.clock()), endReason: "signed_out" })
      .where(and(eq(sessions.id, session.row.id), isNull(sessions.endedAt))),
  );
}

/** Ends every session of the account; answers how many were still live. */
export async function endAccountSessions(service: ServiceContext, accountId: string): Promise<number> {
  const { sessions } = service.db.tables;
  const now = service.clock();
  const ended = await service.db.transaction((tx) =>
    tx
      .update(sessions)
      .set({ endedAt: isoAt(now), endReason: "signed_out_everywhere" })
      .where(and(eq(sessions.accountId, accountId), isNull(sessions.endedAt)))
      .returning({ idleExpiresAt: sessions.idleExpiresAt, expiresAt: sessions.expiresAt }),
  );
  return ended.filter((row) => Date.parse(row.idleExpiresAt) > now && Date.parse(row.expiresAt) > now).length;
}
