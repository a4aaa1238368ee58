import { type ChildProcess, spawn } from "node:child_process";
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

/**
 * A process holding `file` open through openDatabaseForCluster (the API's way in), in a child
 * process: `ready` resolves with "opened" once it holds it, or with the error it printed.
 */
function openInChild(file: string): { child: ChildProcess; ready: Promise<string> } {
  const module = new URL("./open-for-cluster.ts", import.meta.url).href;
  const code = `
    const { openDatabaseForCluster } = await import(${JSON.stringify(module)});
    try {
      await openDatabaseForCluster(process.argv[1], { genesisHash: "G", instanceId: "run-a" }, "archive");
      console.log("opened");
      setInterval(() => {}, 1 << 30);
    } catch (error) {
      console.log(error.message);
      process.exit(3);
    }`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code, file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ready = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk) => {
      out += String(chunk);
      if (out.includes("\n")) resolve(out.trim());
    });
    child.once("exit", (code) => resolve(out.trim() || `exited ${code}`));
    child.once("error", reject);
  });
  return { child, ready };
}

function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

describe("one API process per SQLite file", () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await killed(child);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("Given a process holding the file, When a second process opens it, Then it is refused naming the file and the holder; once the holder is SIGKILLed, opening works", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cpay-lock-"));
    dirs.push(dir);
    const file = join(dir, "cpay.sqlite");
    // Given a first process holding the file
    const first = openInChild(file);
    children.push(first.child);
    expect(await first.ready).toBe("opened");

    // When a second process opens it, Then it is refused, naming the file and the first process
    const second = openInChild(file);
    children.push(second.child);
    const refusal = await second.ready;
    expect(refusal).toContain(file);
    expect(refusal).toContain(`pid ${first.child.pid}`);
    expect(existsSync(file)).toBe(true);

    // When the first process dies without closing anything, Then the next one opens the file
    await killed(first.child);
    const third = openInChild(file);
    children.push(third.child);
    expect(await third.ready).toBe("opened");
  });
});
