/**
 * A fresh, migrated database for tests below the HTTP layer: SQLite in a temporary directory, or a
 * new database on DATABASE_URL's PostgreSQL server when that is set (dropped at close), exactly as
 * the API world does.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "@cpay/api/database";
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
  const name = `cpay_t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
