/**
 * A fresh, migrated database for tests below the HTTP layer: SQLite in a temporary directory, or a
 * new database on DATABASE_URL's PostgreSQL server when that is set (dropped at close), exactly as
 * the API world does.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Database, openDatabase } from "@cpay/ledger/database";
import pg from "pg";

export async function openTestDatabase(): Promise<{ db: Database; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "cpay-db-"));
  const fresh = await freshDatabaseUrl(dir);
  const db = await openDatabase(fresh.url);
  return {
    db,
    async close() {
      await db.close();
      await fresh.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh database URL: a SQLite file in `dir`, or a new database on DATABASE_URL's server. */
export async function freshDatabaseUrl(dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl === undefined || !/^postgres(ql)?:\/\//.test(serverUrl)) {
    return { url: join(dir, "cpay.sqlite"), drop: async () => {} };
  }
  return createPostgresDatabase(serverUrl);
}

/** A new database on the PostgreSQL server at `serverUrl`: its URL, its name, and how to drop it. */
export async function createPostgresDatabase(
  serverUrl: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `cpay_t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A PostgreSQL server for suites that need one whatever the run's dialect: DATABASE_URL when it is
 * a PostgreSQL URL, else the project's throwaway server (scripts/postgres.sh, started if needed).
 */
export function postgresServerUrl(): string {
  const given = process.env.DATABASE_URL;
  if (given !== undefined && /^postgres(ql)?:\/\//.test(given)) return given;
  const script = resolve(dirname(fileURLToPath(import.meta.url)), "../../scripts/postgres.sh");
  return execFileSync("bash", [script, "start"], { encoding: "utf8" }).trim().split("\n").at(-1) as string;
}
