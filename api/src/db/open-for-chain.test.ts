import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "@cpay/ledger/config";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabaseForChain } from "./open-for-chain";

describe("a database tied to one chain", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function withAccount(file: string) {
    const db = await openDatabaseForChain(file, "genesis-a");
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

  it("reopens for the same chain with its rows, and refuses another chain naming both genesis hashes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cpay-bind-"));
    dirs.push(dir);
    const file = join(dir, "cpay.sqlite");
    await withAccount(file);
    const again = await openDatabaseForChain(file, "genesis-a");
    expect(await again.read((q) => q.select().from(again.tables.accounts))).toHaveLength(1);
    await again.close();

    const refused = openDatabaseForChain(file, "genesis-b");
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(/genesis genesis-a, not to this one \(genesis-b\)/);
    // Refused without touching anything: the file is where it was, the lock is released.
    expect(readdirSync(dir).filter((name) => name.endsWith(".sqlite"))).toEqual(["cpay.sqlite"]);
    const stillA = await openDatabaseForChain(file, "genesis-a");
    expect(await stillA.read((q) => q.select().from(stillA.tables.accounts))).toHaveLength(1);
    await stillA.close();
  });
});

/**
 * A process holding `file` open through openDatabaseForChain (the API's way in), in a child
 * process: `ready` resolves with "opened" once it holds it, or with the error it printed.
 */
function openInChild(file: string): { child: ChildProcess; ready: Promise<string> } {
  const module = new URL("./open-for-chain.ts", import.meta.url).href;
  const code = `
    const { openDatabaseForChain } = await import(${JSON.stringify(module)});
    try {
      await openDatabaseForChain(process.argv[1], "genesis-a");
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
