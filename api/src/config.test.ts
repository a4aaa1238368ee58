import { mkdtempSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("service configuration", () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "cpay-config-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("defaults to SQLite under the data dir and a development master key made once (0600)", () => {
    const dir = dataDir();
    const first = loadConfig({}, dir);
    expect(first.databaseUrl).toBe(join(dir, "cpay.sqlite"));
    expect(first.masterKeySource).toBe("development file");
    expect(statSync(join(dir, "master.key")).mode & 0o777).toBe(0o600);
    expect(loadConfig({}, dir).masterKey.id).toBe(first.masterKey.id);
    expect(first.liveModeAvailable).toBe(false);
    expect(first.agentsPerOwnerMax).toBe(20);
  });

  it("takes the agents-per-owner cap from AGENTS_PER_OWNER_MAX", () => {
    expect(loadConfig({ AGENTS_PER_OWNER_MAX: "3" }, dataDir()).agentsPerOwnerMax).toBe(3);
  });

  it("sizes the proof pool from PROOF_WORKERS, by default to the available cores", () => {
    expect(loadConfig({ PROOF_WORKERS: "3" }, dataDir()).proofWorkers).toBe(3);
    expect(loadConfig({}, dataDir()).proofWorkers).toBe(availableParallelism());
  });

  it.each([
    [{ PROOF_WORKERS: "0" }, "PROOF_WORKERS"],
    [{ PROOF_WORKERS: "257" }, "PROOF_WORKERS"],
    [{ PORT: "70000" }, "PORT"],
    [{ PORT: "abc" }, "PORT"],
    [{ RATE_LIMIT_PER_MINUTE: "0" }, "RATE_LIMIT_PER_MINUTE"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ AGENTS_PER_OWNER_MAX: "-1" }, "AGENTS_PER_OWNER_MAX"],
    [{ AGENTS_PER_OWNER_MAX: "2.5" }, "AGENTS_PER_OWNER_MAX"],
    [{ SERVICE_MASTER_KEY: "too-short" }, "SERVICE_MASTER_KEY"],
    [{ MAINNET_RPC_URL: "https://api.mainnet-beta.solana.com" }, "MAINNET_RPC_URL"],
  ])("refuses %o naming %s", (env, name) => {
    expect(() => loadConfig(env, dataDir())).toThrow(ConfigError);
    expect(() => loadConfig(env, dataDir())).toThrow(name);
  });
});
