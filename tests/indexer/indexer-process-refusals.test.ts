/**
 * The standalone indexer refuses to start — exit code 2 and one line saying why, nothing written —
 * on a bad setting, on a database no API has bound to a cluster, and on a database bound to
 * another cluster than the RPC it would read (records of one chain must never land in another's).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiWorld, startApiWorld } from "../support/api-world";

let world: ApiWorld;
let otherCluster: Server;
let otherClusterUrl: string;
const scratch = mkdtempSync(join(tmpdir(), "cpay-indexer-refusals-"));

beforeAll(async () => {
  world = await startApiWorld();
  // An RPC that answers getGenesisHash for some other chain.
  otherCluster = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += String(chunk);
    });
    request.on("end", () => {
      const { id } = JSON.parse(body) as { id: number };
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({ jsonrpc: "2.0", id, result: "4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn" }),
      );
    });
  });
  await new Promise<void>((resolve) => otherCluster.listen(0, "127.0.0.1", resolve));
  otherClusterUrl = `http://127.0.0.1:${(otherCluster.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => otherCluster?.close(resolve));
  await world?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the indexer's start command with `env`; resolves with its exit code and output. */
function runIndexer(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "indexer/src/main.ts"], {
      cwd: new URL("../..", import.meta.url).pathname,
      env: { ...process.env, INDEXER_PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += String(chunk);
    });
    child.stderr.on("data", (chunk) => {
      output += String(chunk);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("the standalone indexer's start-up refusals", () => {
  it("Given a malformed setting, When it starts, Then it exits 2 naming the setting", async () => {
    const { code, output } = await runIndexer({
      INDEXER_POLL_MS: "soon",
      DATABASE_URL: join(scratch, "a.sqlite"),
    });
    expect(code).toBe(2);
    expect(output).toContain("INDEXER_POLL_MS must be an integer");
  });

  it("Given a database no API has used, When it starts, Then it exits 2 asking for the API first", async () => {
    const { code, output } = await runIndexer({
      DATABASE_URL: join(scratch, "empty.sqlite"),
      RPC_URL: otherClusterUrl,
    });
    expect(code).toBe(2);
    expect(output).toContain("start the API on it first");
  });

  it("Given the API's database and an RPC of another cluster, When it starts, Then it exits 2 naming both genesis hashes and writes nothing", async () => {
    const { db } = world.service.context;
    const before = await db.read((q) => q.select().from(db.tables.indexerCheckpoints));
    const { code, output } = await runIndexer({
      DATABASE_URL: world.service.context.config.databaseUrl,
      RPC_URL: otherClusterUrl,
    });
    expect(code).toBe(2);
    expect(output).toContain(`genesis ${world.chain.genesisHash}`);
    expect(output).toContain("serves genesis 4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn");
    expect(await db.read((q) => q.select().from(db.tables.indexerCheckpoints))).toEqual(before);
  });
});
