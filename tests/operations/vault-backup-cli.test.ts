/**
 * The admin CLI's database commands as an operator runs them, each a process with the service's
 * environment: `vault status` and `vault reseal` rotate the master key from A to B (B current, A
 * previous, then B alone), and `backup` copies the SQLite file into a backup that opens under B
 * alone. No key and no secret appears in what they print.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ServiceContext } from "@cpay/api";
import { loadConfig } from "@cpay/api/config";
import { loadSecret, storeSecret } from "@cpay/api/vault";
import { generateMasterKeyHex } from "@cpay/api/vault-crypto";
import { type Database, openDatabase } from "@cpay/ledger/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../..");
const CLI = join(REPO, "tools/src/admin-cli/main.ts");
const KEY_A = generateMasterKeyHex();
const KEY_B = generateMasterKeyHex();
const SECRET = "operator-test-secret-0123456789ab";

let dir: string;
let file: string;

function admin(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ["--import", "tsx", CLI, "--data-dir", dir, ...args],
      {
        cwd: REPO,
        env: { ...process.env, DATABASE_URL: file, SERVICE_MASTER_KEYS_PREVIOUS: "", ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        // Nothing printed may carry a key or a secret.
        for (const text of [KEY_A, KEY_B, SECRET]) expect(stdout + stderr).not.toContain(text);
        done({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr });
      },
    );
  });
}

async function withService<T>(
  path: string,
  env: NodeJS.ProcessEnv,
  work: (service: ServiceContext) => Promise<T>,
) {
  const db: Database = await openDatabase(path);
  try {
    return await work({ db, config: loadConfig(env, dir) } as ServiceContext);
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cpay-ops-cli-"));
  file = join(dir, "cpay.sqlite");
  await withService(file, { SERVICE_MASTER_KEY: KEY_A }, async (service) => {
    for (const account of ["acct_1", "acct_2", "acct_3"]) {
      await service.db.transaction((tx) =>
        storeSecret(service, tx, account, "wallet_seed", new TextEncoder().encode(SECRET)),
      );
    }
  });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("npm run admin -- vault / backup", () => {
  it("Given records under A, When B is current with A previous and the vault is re-sealed, Then B alone opens them, in the backup too", async () => {
    const refused = await admin({ SERVICE_MASTER_KEY: KEY_B }, "vault", "reseal");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("cannot open wallet_seed of acct_1");
    expect(refused.stderr).toContain("3 records are still sealed under old keys");

    const rotating = { SERVICE_MASTER_KEY: KEY_B, SERVICE_MASTER_KEYS_PREVIOUS: KEY_A };
    const resealed = await admin(rotating, "--json", "vault", "reseal", "--batch-size", "2");
    expect(resealed.code).toBe(0);
    expect(JSON.parse(resealed.stdout)).toMatchObject({
      resealed: 3,
      changed_meanwhile: 0,
      unopenable: [],
      records_under_other_keys: [],
      earlier_idempotency_records_until: null,
    });
    expect(resealed.stderr).toContain("3 records re-sealed");

    const after = await admin({ SERVICE_MASTER_KEY: KEY_B }, "vault", "status");
    expect(after.code).toBe(0);
    expect(after.stdout).toContain("every vault record is sealed under the current key");

    const backup = join(dir, "backup.sqlite");
    // A backup job is given no master key: it copies sealed records as they are.
    const copied = await admin({ SERVICE_MASTER_KEY: "" }, "--json", "backup", backup);
    expect(copied.code).toBe(0);
    expect(JSON.parse(copied.stdout).tables).toContainEqual({ name: "vault_secrets", rows: 3 });
    await withService(backup, { SERVICE_MASTER_KEY: KEY_B }, async (service) => {
      for (const account of ["acct_1", "acct_2", "acct_3"]) {
        expect(new TextDecoder().decode(await loadSecret(service, account, "wallet_seed"))).toBe(SECRET);
      }
    });
  }, 180_000);
});
