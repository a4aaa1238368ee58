/**
 * Leases in the database: the one way API processes sharing a database agree who does something
 * now. A lease is a row (`leases`: name, holder, expires_at) whose holder is a random token of one
 * acquisition; it is taken when absent or expired, pushed forward while its holder works, and
 * deleted on release. A holder that dies (SIGKILL, a lost machine) never releases: its lease lapses
 * at `expires_at` and the next taker wins it, so no claim outlives its process by more than one
 * lease period. The same statements run on SQLite (one process per file) and PostgreSQL, where the
 * upsert's row lock decides between two takers racing for an expired lease.
 *
 * Lease times are the wall clock (`Date.now()`) of each process: hosts sharing a database must keep
 * their clocks in step (NTP) to well within a lease period.
 */
import { randomBytes } from "node:crypto";
import type { Database } from "@cpay/ledger/database";
import { and, eq, gt, lt } from "drizzle-orm";

/** A lease this process holds: its name and the token that proves it. */
export interface HeldLease {
  readonly name: string;
  readonly holder: string;
}

/** Takes `name` for `ttlMs` if nobody holds it (or its holder's lease lapsed); null when held. */
export async function tryAcquireLease(db: Database, name: string, ttlMs: number): Promise<HeldLease | null> {
  const { leases } = db.tables;
  const holder = randomBytes(12).toString("base64url");
  const now = Date.now();
  const taken = await db.read((q) =>
    q
      .insert(leases)
      .values({ name, holder, expiresAt: now + ttlMs })
      .onConflictDoUpdate({
        target: leases.name,
        set: { holder, expiresAt: now + ttlMs },
        setWhere: lt(leases.expiresAt, now),
      })
      .returning({ holder: leases.holder }),
  );
  return taken[0]?.holder === holder ? { name, holder } : null;
}

/** Pushes the lease's expiry to now + `ttlMs`; false when it was lost (lapsed and taken over). */
export async function renewLease(db: Database, lease: HeldLease, ttlMs: number): Promise<boolean> {
  const { leases } = db.tables;
  const renewed = await db.read((q) =>
    q
      .update(leases)
      .set({ expiresAt: Date.now() + ttlMs })
      .where(and(eq(leases.name, lease.name), eq(leases.holder, lease.holder)))
      .returning({ name: leases.name }),
  );
  return renewed.length === 1;
}

/** Gives the lease up (a no-op when it was already taken over). */
export async function releaseLease(db: Database, lease: HeldLease): Promise<void> {
  const { leases } = db.tables;
  await db.read((q) =>
    q.delete(leases).where(and(eq(leases.name, lease.name), eq(leases.holder, lease.holder))),
  );
}

/** True while some process holds `name` and has renewed it within its period. */
export async function isLeaseLive(db: Database, name: string): Promise<boolean> {
  const { leases } = db.tables;
  const rows = await db.read((q) =>
    q
      .select({ name: leases.name })
      .from(leases)
      .where(and(eq(leases.name, name), gt(leases.expiresAt, Date.now()))),
  );
  return rows.length === 1;
}

/** Deletes leases that lapsed more than `graceMs` ago (their holders died); returns how many. */
export async function sweepLapsedLeases(db: Database, graceMs: number): Promise<number> {
  const { leases } = db.tables;
  const gone = await db.read((q) =>
    q
      .delete(leases)
      .where(lt(leases.expiresAt, Date.now() - graceMs))
      .returning({ name: leases.name }),
  );
  return gone.length;
}

/**
 * Runs `work` holding `lease`, renewing it every third of `ttlMs`, and releases it after. A renewal
 * that finds the lease gone (this process stalled past its expiry and another took over) is
 * reported through `onLost`; the work itself cannot be recalled, which is why each use keeps its
 * writes guarded by the row's state as well.
 */
export async function holdingLease<T>(
  db: Database,
  lease: HeldLease,
  ttlMs: number,
  work: () => Promise<T>,
  onLost: (name: string) => void = () => {},
): Promise<T> {
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(
    () => {
      renewing = renewLease(db, lease, ttlMs).then(
        (held) => {
          if (!held) onLost(lease.name);
        },
        () => {},
      );
    },
    Math.max(1, Math.floor(ttlMs / 3)),
  );
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await renewing;
    await releaseLease(db, lease).catch(() => {});
  }
}

/**
 * Waits for `name` (polling with a short jittered backoff), then runs `work` holding it. A live
 * holder is waited for however long it works; a dead one's lease lapses within `ttlMs`.
 */
export async function withLease<T>(
  db: Database,
  name: string,
  ttlMs: number,
  work: () => Promise<T>,
  onLost?: (name: string) => void,
): Promise<T> {
  let delayMs = 2;
  for (;;) {
    const lease = await tryAcquireLease(db, name, ttlMs);
    if (lease !== null) return holdingLease(db, lease, ttlMs, work, onLost);
    await new Promise((resolve) => setTimeout(resolve, delayMs + Math.random() * delayMs));
    delayMs = Math.min(delayMs * 2, 50);
  }
}
