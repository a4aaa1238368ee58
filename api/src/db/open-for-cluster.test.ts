import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddedCluster } from "@cpay/sdk/cluster";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../config";
import { openDatabaseForCluster } from "./open-for-cluster";

const clusterA = { genesisHash: "G", instanceId: "run-a" } as EmbeddedCluster;
const clusterB = { genesisHash: "G", instanceId: "run-b" } as EmbeddedCluster;

describe("a database tied to one cluster instance", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function withAccount(file: string) {
    const { db } = await openDatabaseForCluster(file, clusterA, "refuse");
    await db.transaction((tx) =>
      tx
        .insert(db.tables.accounts)
        .values({
          id: "acct_x",
          handle: "@x",
          type: "personal",
          kycStatus: "verified",
          publicKey: "11111111111111111111111111111111",
          createdAt: new Date().toISOString(),
        })
        .then(() => undefined),
    );
    await db.close();
  }

  it("reopens for the same instance, refuses another run of the same genesis, or archives it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cpay-bind-"));
    dirs.push(dir);
    const file = join(dir, "cpay.sqlite");
    await withAccount(file);
    const again = await openDatabaseForCluster(file, clusterA, "refuse");
    expect(again.archivedTo).toBeNull();
    await again.db.close();

    await expect(openDatabaseForCluster(file, clusterB, "refuse")).rejects.toThrow(ConfigError);

    const archived = await openDatabaseForCluster(file, clusterB, "archive");
    expect(archived.archivedTo).toMatch(/cpay-.*\.sqlite$/);
    expect(existsSync(archived.archivedTo as string)).toBe(true);
    const rows = await archived.db.read((q) => q.select().from(archived.db.tables.accounts));
    expect(rows).toEqual([]);
    await archived.db.close();
    expect(readdirSync(dir).filter((name) => name.endsWith(".sqlite"))).toHaveLength(2);
  });
});
