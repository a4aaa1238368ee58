import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  indexerChainOver,
  type Leadership,
  type LeadershipOptions,
  type RunningIndexer,
  startIndexer,
  startLeadership,
} from "@cpay/indexer";
import { type Database, openDatabase } from "@cpay/ledger/database";
import { createEmbeddedCluster, type EmbeddedCluster, inProcessChain } from "@cpay/localnet/cluster";
import type { ChainPort } from "@cpay/sdk/chain";
import { eq } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, postgresServerUrl } from "../support/api-database";
import { type ApiWorld, startApiWorld, usdg } from "../support/api-world";

const logger = pino({ level: "warn" });
const LEASE_MS = 600;
/** leadership.ts's advisory lock key. */
const LEADER_LOCK_KEY = 7264602;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  ms = 15_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Samples who leads every 50 ms while `during` runs (or for `during` ms): each sample's leader
 * count. `leaders` reads every process's belief in one synchronous step (status() reads `leader`
 * before its first await), so a sample is one instant.
 */
async function sampleLeaders(
  leaders: () => boolean[] | Promise<boolean[]>,
  during: number | (() => Promise<unknown>),
): Promise<number[]> {
  const samples: number[] = [];
  let done = false;
  const sampling = (async () => {
    while (!done) {
      samples.push((await leaders()).filter(Boolean).length);
      await sleep(50);
    }
  })();
  try {
    await (typeof during === "number" ? sleep(during) : during());
  } finally {
    done = true;
    await sampling;
  }
  return samples;
}

/** A leadership plus the instants it changed, for timing assertions. */
function leadership(options: Omit<LeadershipOptions, "clock" | "onChange">) {
  const changes: { leader: boolean; at: number }[] = [];
  const handle: Leadership = startLeadership({
    clock: Date.now,
    onChange: (leader) => changes.push({ leader, at: Date.now() }),
    ...options,
  });
  return { handle, changes, isLeader: () => handle.isLeader() };
}

/** A database handle whose calls can be made to fail (the process is gone) or to wait (it stalls). */
function faultyDatabase(db: Database) {
  let mode: "ok" | "dead" | "stalled" = "ok";
  let thaw: () => void = () => {};
  let thawed = Promise.resolve();
  /** Calls not yet settled: a renewal running when the process died may still land. */
  let inFlight = 0;
  const gate = async () => {
    if (mode === "dead") throw new Error("the process is gone");
    if (mode === "stalled") await thawed;
  };
  const tracked = <T>(call: () => Promise<T>): Promise<T> => {
    inFlight += 1;
    return gate()
      .then(call)
      .finally(() => {
        inFlight -= 1;
      });
  };
  const wrapped: Database = {
    dialect: db.dialect,
    tables: db.tables,
    read: (work) => tracked(() => db.read(work)),
    transaction: (work) => tracked(() => db.transaction(work)),
    close: () => db.close(),
  };
  return {
    db: wrapped,
    kill() {
      mode = "dead";
    },
    /** No call of the process is still running (once dead, none starts). */
    idle: () => inFlight === 0,
    stall() {
      mode = "stalled";
      thawed = new Promise((resolve) => {
        thaw = resolve;
      });
    },
    resume() {
      mode = "ok";
      thaw();
    },
  };
}

async function leaseRow(db: Database): Promise<{ holder: string; expiresAt: number } | null> {
  const { serviceMeta } = db.tables;
  const [row] = await db.read((q) =>
    q.select().from(serviceMeta).where(eq(serviceMeta.key, "indexer_leader")),
  );
  return row === undefined ? null : (JSON.parse(row.value) as { holder: string; expiresAt: number });
}

describe("indexer leadership on SQLite: a lease row", () => {
  let cluster: EmbeddedCluster;
  let dir: string;
  let first: Database;
  let second: Database;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    cluster = await createEmbeddedCluster({ slotMs: 50 });
    dir = mkdtempSync(join(tmpdir(), "cpay-leader-"));
    const file = join(dir, "cpay.sqlite");
    // Two handles on one file, as two processes on one machine would have.
    first = await openDatabase(file);
    second = await openDatabase(file);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await first?.close();
    await second?.close();
    cluster?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** A leads on `first` (its database calls can be made to fail or stall), then B stands by on `second`. */
  async function aLeadsBStandsBy() {
    const a = faultyDatabase(first);
    const leaderA = leadership({ db: a.db, databaseUrl: "", leaseMs: LEASE_MS });
    cleanups.push(() => leaderA.handle.release());
    await until("A to lead", () => leaderA.isLeader());
    const leaderB = leadership({ db: second, databaseUrl: "", leaseMs: LEASE_MS });
    cleanups.push(() => leaderB.handle.release());
    return { a, leaderA, leaderB };
  }

  it("Given two indexers on one SQLite file, Then exactly one leads at any time; When the leader stops, Then the other leads within a second", async () => {
    // Given
    const indexers = [first, second].map((db) =>
      startIndexer({
        db,
        databaseUrl: "",
        chain: indexerChainOver(inProcessChain(cluster)),
        logger,
        leaseMs: LEASE_MS,
      }),
    ) as [RunningIndexer, RunningIndexer];
    let running = [...indexers];
    cleanups.push(async () => {
      for (const indexer of running) await indexer.stop();
    });
    const leaders = async () => Promise.all(indexers.map(async (indexer) => (await indexer.status()).leader));
    await until("one indexer to lead", async () => (await leaders()).includes(true));

    // Then: ~2 s (three lease lengths) of samples, each exactly one leader
    const samples: number[] = [];
    for (let i = 0; i < 40; i++) {
      samples.push((await leaders()).filter(Boolean).length);
      await sleep(50);
    }
    expect(samples.filter((count) => count !== 1)).toEqual([]);

    // When
    const leader = (await leaders()).indexOf(true);
    const standBy = indexers[1 - leader] as RunningIndexer;
    const stoppedAt = Date.now();
    await indexers[leader]?.stop();
    running = [standBy];
    // Then
    await until("the stand-by to lead", async () => (await standBy.status()).leader, 5_000);
    expect(Date.now() - stoppedAt).toBeLessThan(1_000);
    expect((await indexers[leader]?.status())?.leader).toBe(false);
    await standBy.stop();
    running = [];
  });

  it("Given a leader that dies without releasing its lease, When its lease runs out, Then the stand-by leads, not before", async () => {
    // Given A leads and B stands by (two processes)
    const { a, leaderA, leaderB } = await aLeadsBStandsBy();
    const before = await sampleLeaders(() => [leaderA.isLeader(), leaderB.isLeader()], 2 * LEASE_MS);
    expect(before.filter((count) => count !== 1)).toEqual([]);
    expect(leaderB.isLeader()).toBe(false);

    // When A's process dies: it renews no more and never releases
    const killedAt = Date.now();
    a.kill();
    // A renewal already running when it died may still land: the lease is read after it did.
    await until("A's last call to settle", () => a.idle());
    const lease = await leaseRow(second);
    expect(lease).not.toBeNull();
    const samples = await sampleLeaders(
      () => [leaderA.isLeader(), leaderB.isLeader()],
      () => until("B to lead", () => leaderB.isLeader(), 5_000),
    );

    // Then B took over only once A's lease had expired, and within a renewal interval of that
    const took = leaderB.changes.find((change) => change.leader)?.at as number;
    expect(took).toBeGreaterThanOrEqual(lease?.expiresAt as number);
    expect(took - (lease?.expiresAt as number)).toBeLessThan(LEASE_MS / 3 + 500);
    expect(took - killedAt).toBeLessThan(LEASE_MS + LEASE_MS / 3 + 500);
    expect(samples.filter((count) => count > 1)).toEqual([]);
    expect(leaderA.isLeader()).toBe(false);
    await leaderA.handle.release();
    await leaderB.handle.release();
  });

  it("Given a leader that stalls past its lease and is replaced, When it then stops, Then its release leaves its successor's lease alone", async () => {
    // Given A leads, then stalls (a long pause) while B stands by; A's lease runs out and B leads
    await until("no lease left by earlier tests", async () => (await leaseRow(first)) === null);
    const { a, leaderA, leaderB } = await aLeadsBStandsBy();
    a.stall();
    await until("B to lead", () => leaderB.isLeader(), 5_000);
    const successor = await leaseRow(second);

    // When A resumes and is stopped at once (it still believed it led when it stalled)
    const released = leaderA.handle.release();
    a.resume();
    await released;

    // Then B's lease row is still there, and B leads alone
    expect(await leaseRow(second)).toMatchObject({ holder: successor?.holder });
    expect(leaderA.isLeader()).toBe(false);
    expect(leaderB.isLeader()).toBe(true);
  });
});

/**
 * A TCP relay to PostgreSQL that opens each connection only after `delayMs`; it counts the
 * connections it accepted and those still open.
 */
async function slowRelay(
  target: URL,
  delayMs: number,
): Promise<{ url: string; accepted(): number; openClients(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let openClients = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    accepted += 1;
    openClients += 1;
    socket.on("close", () => {
      openClients -= 1;
    });
    setTimeout(() => {
      if (socket.destroyed) return;
      const upstream = connect(Number(target.port), target.hostname);
      sockets.add(upstream);
      socket.pipe(upstream).pipe(socket);
      upstream.on("error", () => socket.destroy());
      socket.on("error", () => upstream.destroy());
      socket.on("close", () => upstream.destroy());
      upstream.on("close", () => socket.destroy());
    }, delayMs);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const relayed = new URL(target);
  relayed.hostname = "127.0.0.1";
  relayed.port = String((server.address() as AddressInfo).port);
  return {
    url: relayed.toString(),
    accepted: () => accepted,
    openClients: () => openClients,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}

describe("indexer leadership on PostgreSQL: a session advisory lock", () => {
  let serverUrl: string;
  const databases: string[] = [];
  let url: string;
  let db: Database;
  /** A third connection, to the same database: an operator's psql. */
  let admin: pg.Client;
  const cleanups: (() => Promise<void>)[] = [];

  /** Backends of this database holding the leader lock. */
  const lockHolders = async (client = admin): Promise<number[]> => {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND classid = 0 AND objid = $1 AND objsubid = 1
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [LEADER_LOCK_KEY],
    );
    return rows.map((row) => row.pid);
  };

  beforeAll(async () => {
    serverUrl = postgresServerUrl();
    const created = await createPostgresDatabase(serverUrl);
    databases.push(created.name);
    url = created.url;
    db = await openDatabase(url);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await admin?.end();
    await db?.close();
    if (serverUrl === undefined) return;
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    for (const name of databases) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });

  it("Given a leader and a stand-by, When the server terminates the leader's session, Then the leader stands by at once and the stand-by leads within a few seconds", async () => {
    expect(db.dialect).toBe("postgres");
    // Given A holds the lock and B (retrying every 200 ms) stands by. A retries only every 60 s:
    // it is the process that went away with its session, so the lock is B's to take.
    const leaderA = leadership({ db, databaseUrl: url, retryMs: 60_000, onError: () => {} });
    cleanups.push(() => leaderA.handle.release());
    await until("A to lead", () => leaderA.isLeader());
    const leaderB = leadership({ db, databaseUrl: url, retryMs: 200, onError: () => {} });
    cleanups.push(() => leaderB.handle.release());
    const before = await sampleLeaders(() => [leaderA.isLeader(), leaderB.isLeader()], 1_000);
    expect(before.filter((count) => count !== 1)).toEqual([]);
    const [holder, ...others] = await lockHolders();
    expect(others).toEqual([]);

    // When
    const terminatedAt = Date.now();
    await admin.query("SELECT pg_terminate_backend($1)", [holder]);
    const samples = await sampleLeaders(
      () => [leaderA.isLeader(), leaderB.isLeader()],
      () => until("B to lead", () => leaderB.isLeader(), 5_000),
    );

    // Then
    const dropped = leaderA.changes.find((change) => !change.leader)?.at as number;
    expect(dropped - terminatedAt).toBeLessThan(500);
    const took = leaderB.changes.find((change) => change.leader)?.at as number;
    expect(took - terminatedAt).toBeLessThan(3_000);
    expect(samples.filter((count) => count > 1)).toEqual([]);
    const holders = await lockHolders();
    expect(holders).toHaveLength(1);
    expect(holders).not.toContain(holder);
    expect(leaderA.isLeader()).toBe(false);
    await leaderA.handle.release();
    await leaderB.handle.release();
    await until("the lock to be free", async () => (await lockHolders()).length === 0, 5_000);
  });

  it("Given two leaderships that both retry, When the leader's session is terminated again and again, Then exactly one leads again each time and never both", async () => {
    const both = [0, 1].map(() => leadership({ db, databaseUrl: url, retryMs: 200, onError: () => {} }));
    cleanups.push(async () => {
      for (const one of both) await one.handle.release();
    });
    const leaders = () => both.map((one) => one.isLeader());
    await until("one to lead", () => leaders().includes(true));
    const samples = await sampleLeaders(leaders, async () => {
      for (let round = 0; round < 3; round++) {
        const [holder] = await until("a lock holder", async () => {
          const pids = await lockHolders();
          return pids.length === 1 && leaders().includes(true) ? pids : null;
        });
        await admin.query("SELECT pg_terminate_backend($1)", [holder]);
        await until("someone else's session to lead", async () => {
          const pids = await lockHolders();
          return pids.length === 1 && pids[0] !== holder && leaders().filter(Boolean).length === 1;
        });
      }
    });
    expect(samples.filter((count) => count > 1)).toEqual([]);
    for (const one of both) await one.handle.release();
    await until("the lock to be free", async () => (await lockHolders()).length === 0, 5_000);
  });

  it("Given a leadership released while it is still connecting, Then it holds no lock: another leads", async () => {
    // Given: its connection takes 300 ms to open (a slow network), and it is released while
    // connecting (the relay has its connection, not yet passed on)
    const relay = await slowRelay(new URL(url), 300);
    cleanups.push(relay.close);
    const early = leadership({ db, databaseUrl: relay.url, onError: () => {} });
    await until("its connection to reach the relay", () => relay.accepted() === 1);
    await early.handle.release();
    // ... its connection then opens and the released leadership closes it: nothing came of it
    await until("its connection to close", () => relay.openClients() === 0);
    // Then
    const other = leadership({ db, databaseUrl: url, retryMs: 200, onError: () => {} });
    cleanups.push(() => other.handle.release());
    await until("the other to lead", () => other.isLeader(), 3_000);
    expect(early.isLeader()).toBe(false);
    await other.handle.release();
    await until("the lock to be free", async () => (await lockHolders()).length === 0, 5_000);
  });

  describe("two indexers running passes against one cluster, with an API on the same database", () => {
    let world: ApiWorld;
    let second: Database;
    let worldUrl: string;
    let running: RunningIndexer[] = [];

    beforeAll(async () => {
      const created = await createPostgresDatabase(serverUrl);
      databases.push(created.name);
      worldUrl = created.url;
      world = await startApiWorld({ env: { DATABASE_URL: worldUrl }, indexer: false });
      second = await openDatabase(worldUrl);
    });
    afterAll(async () => {
      for (const indexer of running) await indexer.stop();
      await second?.close();
      await world?.close();
    });

    it("Then never both lead, the stand-by takes over when the leader stops, and every transfer's events are there exactly once", async () => {
      expect(world.dialect).toBe("postgres");
      const [alice] = await Promise.all([world.account("alice"), world.account("bob")]);
      await world.fund(alice.account, { public: usdg(10) });
      const chains = [await world.openChain(), await world.openChain()];
      const indexers = [world.service.context.db, second].map((handle, index) =>
        startIndexer({
          db: handle,
          databaseUrl: worldUrl,
          chain: indexerChainOver(chains[index] as ChainPort),
          logger,
        }),
      ) as [RunningIndexer, RunningIndexer];
      running = [...indexers];
      const transferIds: string[] = [];
      const transfer = async () => {
        const created = await alice.client.call("createTransfer", {
          body: { to: "@bob", amount: "0.5", confidential: false },
        });
        transferIds.push(created.transfer_id);
      };
      const leaderIndex = async () => {
        const statuses = await Promise.all(indexers.map((indexer) => indexer.status()));
        const leading = statuses.flatMap((status, i) => (status.leader ? [i] : []));
        return leading.length === 1 ? leading[0] : null;
      };

      const samples = await sampleLeaders(
        () => Promise.all(indexers.map(async (indexer) => (await indexer.status()).leader)),
        async () => {
          const first = await until("an indexer to lead", leaderIndex);
          for (let i = 0; i < 4; i++) await transfer();
          await until("the first transfers indexed", () => indexedAll(transferIds), 20_000);
          // When the leader stops, the stand-by (retrying every second) takes over
          await indexers[first as number]?.stop();
          running = running.filter((indexer) => indexer !== indexers[first as number]);
          const next = await until("the stand-by to lead", leaderIndex, 5_000);
          expect(next).toBe(1 - (first as number));
          for (let i = 0; i < 4; i++) await transfer();
          await until("every transfer indexed", () => indexedAll(transferIds), 20_000);
          expect((await indexers[next as number]?.status())?.lastError).toBeNull();
        },
      );

      expect(samples.filter((count) => count > 1)).toEqual([]);
      const { events, indexedEvents } = world.service.context.db.tables;
      for (const id of transferIds) {
        const row = await world.transferRow(id);
        expect(row.status).toBe("confirmed");
        const types = await world.service.context.db.read((q) =>
          q
            .select({ type: events.type, factKey: events.factKey })
            .from(events)
            .where(eq(events.resourceId, id)),
        );
        expect(types.map((event) => event.factKey).sort()).toEqual(
          [
            `transfer.confirmed:${id}`,
            `transfer.confirmed:${id}:received`,
            `transfer.initiated:${id}`,
          ].sort(),
        );
        const indexed = await world.service.context.db.read((q) =>
          q.select().from(indexedEvents).where(eq(indexedEvents.resourceId, id)),
        );
        expect(indexed.map((event) => [event.signature, event.event])).toEqual([
          [row.txSignature, "ServiceTransferRecorded"],
        ]);
      }
    });

    /** True once every transfer's `received` event is recorded (only the indexer records it). */
    async function indexedAll(ids: readonly string[]): Promise<boolean> {
      const { events } = world.service.context.db.tables;
      const rows = await world.service.context.db.read((q) =>
        q.select({ factKey: events.factKey }).from(events),
      );
      const keys = new Set(rows.map((row) => row.factKey));
      return ids.every((id) => keys.has(`transfer.confirmed:${id}:received`));
    }
  });
});
