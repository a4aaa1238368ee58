/**
 * One indexer leads at a time; others stand by and take over when it goes. Two leaders would not
 * corrupt anything (every transition is guarded and every fact keyed), but they would race on the
 * checkpoint and do every read twice.
 * - PostgreSQL: a session advisory lock on a dedicated connection. The server releases it the moment
 *   that connection dies, so a killed leader is replaced within one retry interval.
 * - SQLite (one machine): a lease row in `service_meta`, renewed every third of its length; a
 *   killed leader's lease runs out after `leaseMs`.
 */
import { randomUUID } from "node:crypto";
import type { Database } from "@cpay/ledger/database";
import { eq } from "drizzle-orm";
import pg from "pg";

/** The advisory lock key (arbitrary, distinct from the migrations' 7264601). */
const LEADER_LOCK_KEY = 7264602;
const LEASE_KEY = "indexer_leader";

export interface Leadership {
  /** True while this process holds the lock or lease. */
  isLeader(): boolean;
  /** Stops trying and gives the lock/lease up. */
  release(): Promise<void>;
}

export interface LeadershipOptions {
  readonly db: Database;
  /** Needed on PostgreSQL for the lock's own connection. */
  readonly databaseUrl: string;
  readonly clock: () => number;
  /** How often a stand-by tries again. */
  readonly retryMs?: number;
  /** SQLite lease length. */
  readonly leaseMs?: number;
  readonly onChange?: (leader: boolean) => void;
  readonly onError?: (error: unknown) => void;
}

export function startLeadership(options: LeadershipOptions): Leadership {
  return options.db.dialect === "postgres" ? advisoryLockLeadership(options) : leaseLeadership(options);
}

function advisoryLockLeadership(options: LeadershipOptions): Leadership {
  const retryMs = options.retryMs ?? 1000;
  const state = leaderState(options.onChange);
  let stopped = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  const attempt = async () => {
    timer = null;
    if (stopped) return;
    try {
      if (client === null) {
        const fresh = new pg.Client({ connectionString: options.databaseUrl });
        fresh.on("error", (error) => {
          // The session (and with it the lock) is gone: stand by and reconnect.
          options.onError?.(error);
          if (client === fresh) client = null;
          state.set(false);
          fresh.end().catch(() => {});
        });
        await fresh.connect();
        if (stopped) {
          // Released while connecting: release() saw no client, so nothing else would close this one.
          await fresh.end().catch(() => {});
          return;
        }
        client = fresh;
      }
      if (!state.leader) {
        const result = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [
          LEADER_LOCK_KEY,
        ]);
        if (result.rows[0]?.locked === true && !stopped) state.set(true);
      } else {
        await client.query("SELECT 1");
      }
    } catch (error) {
      options.onError?.(error);
      state.set(false);
      await client?.end().catch(() => {});
      client = null;
    }
    if (!stopped) timer = setTimeout(attempt, retryMs);
  };
  timer = setTimeout(attempt, 0);
  return {
    isLeader: () => state.leader,
    async release() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      state.set(false);
      await client?.query("SELECT pg_advisory_unlock($1)", [LEADER_LOCK_KEY]).catch(() => {});
      await client?.end().catch(() => {});
      client = null;
    },
  };
}

function leaseLeadership(options: LeadershipOptions): Leadership {
  const leaseMs = options.leaseMs ?? 15_000;
  const holder = randomUUID();
  const { serviceMeta } = options.db.tables;
  const state = leaderState(options.onChange);
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let attempting: Promise<void> | null = null;
  const attempt = async () => {
    timer = null;
    if (stopped) return;
    try {
      const now = options.clock();
      const won = await options.db.transaction(async (tx) => {
        const [row] = await tx.select().from(serviceMeta).where(eq(serviceMeta.key, LEASE_KEY));
        const lease =
          row === undefined ? null : (JSON.parse(row.value) as { holder: string; expiresAt: number });
        if (lease !== null && lease.holder !== holder && lease.expiresAt > now) return false;
        const value = JSON.stringify({ holder, expiresAt: now + leaseMs });
        await tx
          .insert(serviceMeta)
          .values({ key: LEASE_KEY, value })
          .onConflictDoUpdate({ target: serviceMeta.key, set: { value } });
        return true;
      });
      if (!stopped) state.set(won);
    } catch (error) {
      options.onError?.(error);
      state.set(false);
    }
    if (!stopped) timer = setTimeout(run, Math.max(50, Math.floor(leaseMs / 3)));
  };
  const run = () => {
    attempting = attempt().finally(() => {
      attempting = null;
    });
  };
  timer = setTimeout(run, 0);
  return {
    isLeader: () => state.leader,
    async release() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      await attempting;
      // Only our own lease (a stand-by may have taken over while this process stalled), and even
      // when not (yet) leading: the attempt that just finished may have written one.
      await options.db
        .transaction(async (tx) => {
          const [row] = await tx.select().from(serviceMeta).where(eq(serviceMeta.key, LEASE_KEY));
          if (row !== undefined && (JSON.parse(row.value) as { holder: string }).holder === holder) {
            await tx.delete(serviceMeta).where(eq(serviceMeta.key, LEASE_KEY));
          }
        })
        .catch(() => {});
      state.set(false);
    },
  };
}

/** Whether this process leads, telling `onChange` only when that changes. */
function leaderState(onChange: ((leader: boolean) => void) | undefined) {
  let leader = false;
  return {
    get leader() {
      return leader;
    },
    set(value: boolean) {
      if (leader === value) return;
      leader = value;
      onChange?.(value);
    },
  };
}
