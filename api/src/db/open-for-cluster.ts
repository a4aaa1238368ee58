/**
 * Ties a database to one cluster instance. Rows describe a chain: accounts, holds, transfers. The
 * embedded cluster keeps its chain in memory and its genesis is the same every run, so the
 * database records `genesis/instance id` and a later start against another instance finds rows
 * about a chain that is gone. `refuse` stops with an explanation; `archive` (the start command's
 * choice, SQLite only) moves the old file aside (`<name>-<time>.sqlite`) and starts empty.
 *
 * A SQLite file is held by one API process at a time (process-lock.ts): a second one is refused
 * before it reads, archives or caches anything; the lock goes with `db.close()` or the process.
 */
import { existsSync, renameSync } from "node:fs";
import type { EmbeddedCluster } from "@cpay/sdk/cluster";
import { eq, sql } from "drizzle-orm";
import { ConfigError } from "../config";
import { type Database, openDatabase } from "./database";
import { lockDatabaseFile } from "./process-lock";

/**
 * The API's way into its database: locked to this process when it is a SQLite file, then checked
 * against (or bound to) `cluster`'s instance; rows of another instance are refused or archived.
 */
export async function openDatabaseForCluster(
  url: string,
  cluster: EmbeddedCluster,
  staleData: "archive" | "refuse",
): Promise<{ db: Database; archivedTo: string | null }> {
  const lock = isSqliteFile(url) ? lockDatabaseFile(url) : null;
  try {
    const opened = await openForCluster(url, cluster, staleData);
    if (lock === null) return opened;
    const { db } = opened;
    const close = async () => {
      await db.close();
      lock.release();
    };
    return { ...opened, db: { ...db, close } };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

function isSqliteFile(url: string): boolean {
  return !/^postgres(ql)?:\/\//.test(url) && url !== ":memory:";
}

async function openForCluster(
  url: string,
  cluster: EmbeddedCluster,
  staleData: "archive" | "refuse",
): Promise<{ db: Database; archivedTo: string | null }> {
  // The simulator's: `instanceId` exists only on the embedded cluster (configuration, next).
  const identity = `${cluster.genesisHash}/${cluster.instanceId}`;
  let db = await openDatabase(url);
  let archivedTo: string | null = null;
  const recorded = await recordedIdentity(db);
  if (recorded !== identity && (recorded !== null || (await hasAccounts(db)))) {
    await db.close();
    const sqliteFile = db.dialect === "sqlite" && existsSync(url) ? url : null;
    if (staleData === "refuse" || sqliteFile === null) {
      throw new ConfigError(
        `the database at ${db.dialect === "sqlite" ? url : "DATABASE_URL"} holds rows of another cluster instance ` +
          `(${recorded ?? "unrecorded"}; this one is ${identity}). The embedded cluster keeps its chain in memory, ` +
          "so those rows describe a chain that is gone: point DATABASE_URL at an empty database",
      );
    }
    archivedTo = archive(sqliteFile);
    db = await openDatabase(url);
  }
  await db.transaction((tx) =>
    tx
      .insert(db.tables.serviceMeta)
      .values({ key: "cluster_instance", value: identity })
      .onConflictDoNothing()
      .then(() => undefined),
  );
  return { db, archivedTo };
}

async function recordedIdentity(db: Database): Promise<string | null> {
  const { serviceMeta } = db.tables;
  const [row] = await db.read((q) =>
    q.select().from(serviceMeta).where(eq(serviceMeta.key, "cluster_instance")),
  );
  return row?.value ?? null;
}

async function hasAccounts(db: Database): Promise<boolean> {
  const [row] = await db.read((q) => q.select({ n: sql<number>`count(*)` }).from(db.tables.accounts));
  return Number(row?.n) > 0;
}

function archive(file: string): string {
  const archived = `${file.replace(/\.sqlite$/, "")}-${new Date().toISOString().replace(/[:.]/g, "-")}.sqlite`;
  renameSync(file, archived);
  for (const suffix of ["-wal", "-shm"]) {
    if (existsSync(file + suffix)) renameSync(file + suffix, archived + suffix);
  }
  return archived;
}
