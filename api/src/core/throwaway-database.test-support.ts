/**
 * For tests on a real (SQLite) database: a fresh one in a temporary directory before each test of
 * the calling file, closed and removed after it, and the service's context as it would start there
 * with a given environment (only `db` and `config`: what the vault and the idempotency store read).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "@cpay/ledger/database";
import { afterEach, beforeEach } from "vitest";
import { loadConfig } from "./config/service-config";
import type { ServiceContext } from "./service-context";

export interface ThrowawayDatabase {
  /** The running test's database. */
  readonly db: Database;
  /** The context the service would start with under `env`, on this database. */
  serviceWith(env: NodeJS.ProcessEnv): ServiceContext;
}

/** Registers the hooks that make and remove the database; `name` tells the directories apart. */
export function useThrowawayDatabase(name: string): ThrowawayDatabase {
  let dir = "";
  let db: Database | null = null;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), `cpay-${name}-`));
    db = await openDatabase(join(dir, "cpay.sqlite"));
  });
  afterEach(async () => {
    await db?.close();
    db = null;
    rmSync(dir, { recursive: true, force: true });
  });
  const current = (): Database => {
    if (db === null) throw new Error("the throwaway database exists only while a test runs");
    return db;
  };
  return {
    get db() {
      return current();
    },
    serviceWith: (env) => ({ db: current(), config: loadConfig(env, dir) }) as ServiceContext,
  };
}
