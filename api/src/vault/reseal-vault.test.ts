/**
 * Master-key rotation on a real (SQLite) database: records sealed under key A still open when the
 * service starts with B current and A previous; `resealVault` moves every row to B in batches;
 * afterwards B alone opens everything. Rows the service changes while a batch is between its read
 * and its write are left as the service wrote them (compare-and-set). Idempotency records made
 * under A replaying during the rotation: http/idempotency-rotation.test.ts.
 */
import type { Database } from "@cpay/ledger/database";
import { describe, expect, it } from "vitest";
import type { ServiceContext } from "../core/service-context";
import { useThrowawayDatabase } from "../core/throwaway-database.test-support";
import { generateMasterKeyHex, VaultError } from "../core/vault-crypto";
import { deleteSecret, loadSecret, type SecretKind, storeSecret } from "./account-secrets";
import { keysInUse, resealVault } from "./reseal-vault";

const KEY_A = generateMasterKeyHex();
const KEY_B = generateMasterKeyHex();
const KINDS: readonly SecretKind[] = ["wallet_seed", "confidential_secret"];

const world = useThrowawayDatabase("reseal");
const { serviceWith } = world;

function secretOf(account: number, kind: SecretKind): Uint8Array {
  return new TextEncoder().encode(`secret ${kind} of account ${account}`.padEnd(32, "."));
}

async function sealAll(service: ServiceContext, accounts: number): Promise<void> {
  for (let account = 0; account < accounts; account += 1) {
    for (const kind of KINDS) {
      await service.db.transaction((tx) =>
        storeSecret(service, tx, `acct_${account}`, kind, secretOf(account, kind)),
      );
    }
  }
}

async function expectAllOpen(service: ServiceContext, accounts: number): Promise<void> {
  for (let account = 0; account < accounts; account += 1) {
    for (const kind of KINDS) {
      expect(await loadSecret(service, `acct_${account}`, kind)).toEqual(secretOf(account, kind));
    }
  }
}

describe("vault master-key rotation", () => {
  it("Given records sealed under A, When B is current with A previous and the vault is re-sealed, Then B alone opens every record", async () => {
    const underA = serviceWith({ SERVICE_MASTER_KEY: KEY_A });
    await sealAll(underA, 7);
    const keyA = underA.config.masterKey.id;

    const onlyB = serviceWith({ SERVICE_MASTER_KEY: KEY_B });
    await expect(loadSecret(onlyB, "acct_0", "wallet_seed")).rejects.toThrow(VaultError);

    const rotating = serviceWith({ SERVICE_MASTER_KEY: KEY_B, SERVICE_MASTER_KEYS_PREVIOUS: ` ${KEY_A} ,` });
    expect(rotating.config.previousMasterKeys.map((key) => key.id)).toEqual([keyA]);
    await expectAllOpen(rotating, 7);
    // A record written during the rotation is sealed under B.
    await rotating.db.transaction((tx) =>
      storeSecret(rotating, tx, "acct_new", "wallet_seed", secretOf(99, "wallet_seed")),
    );

    const batches: number[] = [];
    const report = await resealVault(
      world.db,
      { current: rotating.config.masterKey, previous: rotating.config.previousMasterKeys },
      { batchSize: 3, onBatch: (done) => batches.push(done) },
    );
    expect(report).toMatchObject({ resealed: 14, changedMeanwhile: 0, unopenable: [], remaining: [] });
    expect(batches).toEqual([3, 6, 9, 12, 14]);
    const rows = await world.db.read((tx) => tx.select().from(world.db.tables.vaultSecrets));
    expect(new Set(rows.map((row) => row.keyId))).toEqual(new Set([onlyB.config.masterKey.id]));

    await expectAllOpen(onlyB, 7);
    expect(await loadSecret(onlyB, "acct_new", "wallet_seed")).toEqual(secretOf(99, "wallet_seed"));
  });

  it("Given the service deletes or replaces a record between a batch's read and its write, Then the re-seal leaves the service's write in place", async () => {
    const underA = serviceWith({ SERVICE_MASTER_KEY: KEY_A });
    await sealAll(underA, 2);
    const rotating = serviceWith({ SERVICE_MASTER_KEY: KEY_B, SERVICE_MASTER_KEYS_PREVIOUS: KEY_A });
    // The service's writes land just before the batch's compare-and-set transaction.
    let raced = false;
    const db = world.db;
    const racing: Database = {
      ...db,
      async transaction(work) {
        if (!raced) {
          raced = true;
          await db.transaction(async (tx) => {
            await deleteSecret(rotating, tx, "acct_0", "confidential_secret");
            await deleteSecret(rotating, tx, "acct_0", "wallet_seed");
            await storeSecret(rotating, tx, "acct_0", "wallet_seed", secretOf(42, "wallet_seed"));
          });
        }
        return db.transaction(work);
      },
    };
    const report = await resealVault(racing, {
      current: rotating.config.masterKey,
      previous: [underA.config.masterKey],
    });
    expect(report).toMatchObject({ resealed: 2, changedMeanwhile: 2, remaining: [] });

    const onlyB = serviceWith({ SERVICE_MASTER_KEY: KEY_B });
    await expect(loadSecret(onlyB, "acct_0", "confidential_secret")).rejects.toThrow(
      "no confidential_secret",
    );
    expect(await loadSecret(onlyB, "acct_0", "wallet_seed")).toEqual(secretOf(42, "wallet_seed"));
    expect(await loadSecret(onlyB, "acct_1", "wallet_seed")).toEqual(secretOf(1, "wallet_seed"));
  });

  it("Given a record under a key that is not configured, Then the re-seal reports it and the old key id stays listed", async () => {
    const underA = serviceWith({ SERVICE_MASTER_KEY: KEY_A });
    await sealAll(underA, 1);
    const onlyB = serviceWith({ SERVICE_MASTER_KEY: KEY_B });
    const report = await resealVault(world.db, { current: onlyB.config.masterKey, previous: [] });
    expect(report.resealed).toBe(0);
    expect(report.unopenable).toHaveLength(2);
    expect(report.remaining).toEqual([{ keyId: underA.config.masterKey.id, rows: 2 }]);
    expect(await keysInUse(world.db, onlyB.config.masterKey.id)).toEqual(report.remaining);
  });
});
