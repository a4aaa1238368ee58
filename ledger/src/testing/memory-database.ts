/**
 * A fresh, migrated in-memory SQLite database for each test of the calling `describe`, closed after
 * the test: `const db = useMemoryDatabase();` at the top of the describe, `db()` inside a test.
 */
import { afterEach, beforeEach } from "vitest";
import { type Database, openDatabase } from "../db/database";

export function useMemoryDatabase(): () => Database {
  let db: Database | null = null;
  beforeEach(async () => {
    db = await openDatabase(":memory:");
  });
  afterEach(async () => {
    await db?.close();
    db = null;
  });
  return () => {
    if (db === null) throw new Error("the memory database exists only while a test runs");
    return db;
  };
}
