/**
 * Migration 0011 renames the held agent transactions' table and columns to the glossary's words
 * (docs/glossary.md): `agent_transactions` -> `holds`, its `pending_address` -> `hold_address`, and
 * `transfers.held_transaction_id` -> `hold_id`. A database made before it — migrated up to 0010
 * and holding rows — must open after it with every row where it was, on both dialects: SQLite in a
 * temporary file, PostgreSQL on DATABASE_URL's server or the project's throwaway one.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@cpay/ledger/database";
import SqliteDatabase from "better-sqlite3";
import { asc } from "drizzle-orm";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import { migrate as migrateSqlite } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPostgresDatabase, postgresServerUrl } from "../support/api-database";

const MIGRATIONS = resolve(dirname(fileURLToPath(import.meta.url)), "../../migrations");
/** The last migration before the rename. */
const BEFORE_RENAME = 10;

/** The rows a database of migration 0010 holds: two holds (one decided), their transfers and one plain transfer. */
const HOLDS_BEFORE = [
  {
    id: "tx_open",
    agent_account_id: "acct_agent",
    owner_account_id: "acct_owner",
    transfer_id: "tr_held",
    pending_address: "PendingOpen1111111111111111111111111111111",
    to: "@merchant",
    confidential: true,
    status: "pending_approval",
    requested_at: "2026-11-30T10:00:00.000Z",
    expires_at: "2026-12-01T10:00:00.000Z",
    decided_at: null,
    tx_signature: null,
    sealed_amount: "c2VhbGVk",
  },
  {
    id: "tx_decided",
    agent_account_id: "acct_agent",
    owner_account_id: "acct_owner",
    transfer_id: "tr_approved",
    pending_address: "PendingDone1111111111111111111111111111111",
    to: "@bob",
    confidential: false,
    status: "approved",
    requested_at: "2026-11-29T10:00:00.000Z",
    expires_at: "2026-11-30T10:00:00.000Z",
    decided_at: "2026-11-29T11:00:00.000Z",
    tx_signature: "approvalSignature",
    sealed_amount: null,
  },
] as const;

const TRANSFERS_BEFORE = [
  { id: "tr_held", held_transaction_id: "tx_open", status: "pending", phase: "held" },
  { id: "tr_approved", held_transaction_id: "tx_decided", status: "confirmed", phase: "settled" },
  { id: "tr_plain", held_transaction_id: null, status: "confirmed", phase: "settled" },
] as const;

/** A copy of the migrations folder of `dialect` whose journal stops at `lastIndex`. */
function migrationsUpTo(dialect: "sqlite" | "postgres", lastIndex: number, into: string): string {
  const folder = join(into, dialect);
  cpSync(join(MIGRATIONS, dialect), folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= lastIndex);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

/** Both tables' rows as 0010 named them, as statements with placeholders for `placeholder(n)`. */
function seedStatements(placeholder: (n: number) => string): { text: string; values: unknown[] }[] {
  const insert = (table: string, row: Record<string, unknown>) => {
    const columns = Object.keys(row);
    return {
      text: `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((_, i) => placeholder(i + 1)).join(", ")})`,
      values: Object.values(row),
    };
  };
  return [
    ...HOLDS_BEFORE.map((row) => insert("agent_transactions", row)),
    ...TRANSFERS_BEFORE.map((row) =>
      insert("transfers", {
        ...row,
        account_id: "acct_agent",
        from_handle: "@owner/agent",
        to: "@merchant",
        recipient_address: "Recipient111111111111111111111111111111111",
        asset: "USDG",
        confidential: row.id !== "tr_plain",
        created_at: "2026-11-29T09:00:00.000Z",
      }),
    ),
  ];
}

/** What the renamed tables must hold: the same rows, under the new names. */
function expectRowsKept(holds: unknown, transfers: unknown): void {
  expect(holds).toEqual(
    HOLDS_BEFORE.map(({ pending_address, ...row }) => ({
      id: row.id,
      agentAccountId: row.agent_account_id,
      ownerAccountId: row.owner_account_id,
      transferId: row.transfer_id,
      holdAddress: pending_address,
      to: row.to,
      confidential: row.confidential,
      status: row.status,
      requestedAt: row.requested_at,
      expiresAt: row.expires_at,
      decidedAt: row.decided_at,
      txSignature: row.tx_signature,
      sealedAmount: row.sealed_amount,
    })).sort((a, b) => a.id.localeCompare(b.id)),
  );
  expect(transfers).toEqual(
    TRANSFERS_BEFORE.map((row) => ({
      id: row.id,
      holdId: row.held_transaction_id,
      status: row.status,
      phase: row.phase,
    })).sort((a, b) => a.id.localeCompare(b.id)),
  );
}

/** Opens `url` with the current migrations and reads both tables back. */
async function openAndRead(
  url: string,
): Promise<{ holds: unknown; transfers: unknown; close(): Promise<void> }> {
  const db = await openDatabase(url);
  const { holds, transfers } = db.tables;
  const holdRows = await db.read((q) => q.select().from(holds).orderBy(asc(holds.id)));
  const transferRows = await db.read((q) =>
    q
      .select({
        id: transfers.id,
        holdId: transfers.holdId,
        status: transfers.status,
        phase: transfers.phase,
      })
      .from(transfers)
      .orderBy(asc(transfers.id)),
  );
  return { holds: holdRows, transfers: transferRows, close: () => db.close() };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cpay-holds-rename-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("migration 0011 (holds)", () => {
  it("Given a SQLite file migrated to 0010 with holds and transfers, When it opens after the rename, Then every row is there under the new names", async () => {
    // Given
    const file = join(dir, "cpay.sqlite");
    const connection = new SqliteDatabase(file);
    migrateSqlite(drizzleSqlite(connection), {
      migrationsFolder: migrationsUpTo("sqlite", BEFORE_RENAME, dir),
    });
    for (const { text, values } of seedStatements(() => "?")) {
      connection
        .prepare(text)
        .run(...values.map((value) => (typeof value === "boolean" ? Number(value) : value)));
    }
    connection.close();

    // When
    const opened = await openAndRead(file);

    // Then
    try {
      expectRowsKept(opened.holds, opened.transfers);
    } finally {
      await opened.close();
    }
    const after = new SqliteDatabase(file, { readonly: true });
    const tables = after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    after.close();
    expect(tables.map((table) => table.name)).not.toContain("agent_transactions");
  });

  it("Given a PostgreSQL database migrated to 0010 with holds and transfers, When it opens after the rename, Then every row is there under the new names", async () => {
    // Given
    const database = await createPostgresDatabase(postgresServerUrl());
    try {
      const pool = new pg.Pool({ connectionString: database.url, max: 1 });
      try {
        await migratePg(drizzlePg(pool), {
          migrationsFolder: migrationsUpTo("postgres", BEFORE_RENAME, dir),
        });
        for (const { text, values } of seedStatements((n) => `$${n}`)) await pool.query(text, values);
      } finally {
        await pool.end();
      }

      // When
      const opened = await openAndRead(database.url);

      // Then
      try {
        expectRowsKept(opened.holds, opened.transfers);
      } finally {
        await opened.close();
      }
      const check = new pg.Client({ connectionString: database.url });
      await check.connect();
      const old = await check.query("SELECT to_regclass('agent_transactions') AS name");
      await check.end();
      expect(old.rows[0]?.name).toBeNull();
    } finally {
      await database.drop();
    }
  });
});
