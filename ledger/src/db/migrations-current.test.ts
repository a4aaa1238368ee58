/**
 * The committed migrations are generated from the schema and never hand-edited (STYLE 12): running
 * drizzle-kit against a copy of them must find nothing to generate, for both dialects. A schema
 * change without `npm run db:generate --workspace @cpay/ledger` fails here.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const LEDGER_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const MIGRATIONS = resolve(LEDGER_ROOT, "../migrations");

describe.each([
  ["sqlite", "src/db/schema.sqlite.ts"],
  ["postgresql", "src/db/schema.pg.ts"],
])("the %s migrations", (dialect, schema) => {
  it("match the schema (drizzle-kit finds nothing to generate)", () => {
    const folder = dialect === "sqlite" ? "sqlite" : "postgres";
    const copy = mkdtempSync(join(tmpdir(), "cpay-migrations-"));
    try {
      cpSync(join(MIGRATIONS, folder), copy, { recursive: true });
      const before = readdirSync(copy).sort();
      const run = spawnSync(
        "npx",
        [
          "drizzle-kit",
          "generate",
          "--dialect",
          dialect,
          "--schema",
          schema,
          "--out",
          relative(LEDGER_ROOT, copy),
          "--name",
          "drift",
        ],
        { cwd: LEDGER_ROOT, encoding: "utf8" },
      );
      expect(run.status).toBe(0);
      expect(`${run.stdout}${run.stderr}`).toContain("No schema changes");
      expect(readdirSync(copy).sort()).toEqual(before);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 60_000);
});
