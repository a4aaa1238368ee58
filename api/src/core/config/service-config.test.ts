import { mkdtempSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./service-config";

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
  /** loadConfig refuses `env` with a ConfigError whose message names the setting `name`. */
  const expectRefused = (env: NodeJS.ProcessEnv, name: string) => {
    expect(() => loadConfig(env, dataDir())).toThrow(ConfigError);
    expect(() => loadConfig(env, dataDir())).toThrow(name);
  };

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

  it("takes the dashboard's origin and session lifetimes, defaulting to 30 min idle and 12 h", () => {
    expect(loadConfig({}, dataDir()).dashboard).toEqual({
      origin: null,
      sessionIdleMs: 30 * 60_000,
      sessionMaxMs: 12 * 3_600_000,
    });
    const set = loadConfig(
      { DASHBOARD_ORIGIN: "https://pay.example.com", SESSION_IDLE_MINUTES: "5", SESSION_MAX_HOURS: "1" },
      dataDir(),
    ).dashboard;
    expect(set).toEqual({
      origin: "https://pay.example.com",
      sessionIdleMs: 300_000,
      sessionMaxMs: 3_600_000,
    });
  });

  it("trusts no proxy by default, and TRUST_PROXY as a hop count or the proxies' addresses; never every hop", () => {
    expect(loadConfig({}, dataDir()).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "false" }, dataDir()).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "1" }, dataDir()).trustProxy).toBe(1);
    expect(
      loadConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8,fd00::/8, 192.0.2.7" }, dataDir()).trustProxy,
    ).toEqual(["loopback", "10.0.0.0/8", "fd00::/8", "192.0.2.7"]);
    for (const bad of ["true", "0", "11", "proxy.example.com", "10.0.0.0/33", "loopback,", "::1/129"]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }, dataDir()), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it("takes the agents-per-owner cap from AGENTS_PER_OWNER_MAX", () => {
    expect(loadConfig({ AGENTS_PER_OWNER_MAX: "3" }, dataDir()).agentsPerOwnerMax).toBe(3);
  });

  it("takes the account-opening fee from ACCOUNT_OPENING_FEE_USDG in base units, by default 1 USDG", () => {
    expect(loadConfig({}, dataDir()).accountOpeningFeeUnits).toBe(1_000_000n);
    expect(loadConfig({ ACCOUNT_OPENING_FEE_USDG: "0.25" }, dataDir()).accountOpeningFeeUnits).toBe(250_000n);
    expect(loadConfig({ ACCOUNT_OPENING_FEE_USDG: "1000" }, dataDir()).accountOpeningFeeUnits).toBe(
      1_000_000_000n,
    );
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
    [{ DASHBOARD_ORIGIN: "localhost:3000" }, "DASHBOARD_ORIGIN"],
    [{ DASHBOARD_ORIGIN: "https://pay.example.com/app" }, "DASHBOARD_ORIGIN"],
    [{ DASHBOARD_ORIGIN: "ftp://pay.example.com" }, "DASHBOARD_ORIGIN"],
    [{ SESSION_IDLE_MINUTES: "0" }, "SESSION_IDLE_MINUTES"],
    [{ SESSION_MAX_HOURS: "721" }, "SESSION_MAX_HOURS"],
    [{ AGENTS_PER_OWNER_MAX: "-1" }, "AGENTS_PER_OWNER_MAX"],
    [{ AGENTS_PER_OWNER_MAX: "2.5" }, "AGENTS_PER_OWNER_MAX"],
    [{ SERVICE_MASTER_KEY: "too-short" }, "SERVICE_MASTER_KEY"],
    [{ MAINNET_RPC_URL: "https://api.mainnet-beta.solana.com" }, "MAINNET_RPC_URL"],
    [{ ACCOUNT_OPENING_FEE_USDG: "0" }, "ACCOUNT_OPENING_FEE_USDG"],
    [{ ACCOUNT_OPENING_FEE_USDG: "1000.000001" }, "ACCOUNT_OPENING_FEE_USDG"],
    [{ ACCOUNT_OPENING_FEE_USDG: "0.0000001" }, "ACCOUNT_OPENING_FEE_USDG"],
    [{ ACCOUNT_OPENING_FEE_USDG: "-1" }, "ACCOUNT_OPENING_FEE_USDG"],
    [{ ACCOUNT_OPENING_FEE_USDG: "one" }, "ACCOUNT_OPENING_FEE_USDG"],
  ])("refuses %o naming %s", expectRefused);

  describe("environments", () => {
    const live = {
      LIVE_RPC_URL: "https://rpc.example/",
      LIVE_WS_URL: "wss://rpc.example/",
      LIVE_DATABASE_URL: "postgres://cpay@db.example/live",
      LIVE_PROGRAM_ID: "8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf",
      LIVE_USDG_MINT: "8mZQq32bLyGan896u6frcQiQ2uJCnfRukGFJ3bPWYxg",
      LIVE_FEE_RESERVE_SIGNER: "exec:/opt/kms/sign-reserve",
      LIVE_REGISTRAR_SIGNER: "file:/etc/cpay/registrar.json",
    };

    it("has no live environment unless LIVE_RPC_URL or LIVE_HELIUS_API_KEY is set", () => {
      const config = loadConfig({}, dataDir());
      expect(config.environments.live).toBeNull();
      expect(config.environments.test.cluster.kind).toBe("manifest");
      expect(config.environments.test.reserveMinLamports).toBe(100_000_000n);
      expect(config.environments.test.reserveWarnLamports).toBe(1_000_000_000n);
    });

    it("reads the reserve's warning line, and refuses one below the start-up floor, naming both", () => {
      const config = loadConfig({ RESERVE_MIN_LAMPORTS: "5", RESERVE_WARN_LAMPORTS: "7" }, dataDir());
      expect(config.environments.test.reserveWarnLamports).toBe(7n);
      expect(() => loadConfig({ RESERVE_MIN_LAMPORTS: "5", RESERVE_WARN_LAMPORTS: "4" }, dataDir())).toThrow(
        /RESERVE_WARN_LAMPORTS \(4\) must be at least RESERVE_MIN_LAMPORTS \(5\)/,
      );
      // Unset, it follows a floor raised above its default.
      const raised = loadConfig({ RESERVE_MIN_LAMPORTS: "10000000000" }, dataDir());
      expect(raised.environments.test.reserveWarnLamports).toBe(10_000_000_000n);
      expect(() => loadConfig({ RESERVE_WARN_LAMPORTS: "1 SOL" }, dataDir())).toThrow(
        /RESERVE_WARN_LAMPORTS must be a whole number of lamports/,
      );
    });

    it("reads the live environment from its LIVE_ settings", () => {
      const config = loadConfig({ ...live, RESERVE_MIN_LAMPORTS: "5" }, dataDir());
      expect(config.liveModeAvailable).toBe(true);
      expect(config.environments.live).toMatchObject({
        name: "live",
        databaseUrl: live.LIVE_DATABASE_URL,
        reserveMinLamports: 5n,
        cluster: {
          kind: "explicit",
          rpcUrl: live.LIVE_RPC_URL,
          wsUrl: live.LIVE_WS_URL,
          programId: live.LIVE_PROGRAM_ID,
          usdgMint: live.LIVE_USDG_MINT,
          feeReserve: { provider: "exec", path: "/opt/kms/sign-reserve" },
          registrar: { provider: "file", path: "/etc/cpay/registrar.json" },
        },
      });
    });

    it("builds Helius' mainnet URLs from LIVE_HELIUS_API_KEY and never describes them with the key", () => {
      const { LIVE_RPC_URL: _rpc, LIVE_WS_URL: _ws, ...rest } = live;
      const cluster = loadConfig({ ...rest, LIVE_HELIUS_API_KEY: "k3y" }, dataDir()).environments.live
        ?.cluster;
      expect(cluster).toMatchObject({
        rpcUrl: "https://mainnet.helius-rpc.com/?api-key=k3y",
        wsUrl: "wss://mainnet.helius-rpc.com/?api-key=k3y",
      });
      expect(cluster?.kind === "explicit" ? cluster.rpcDescription : "").not.toContain("k3y");
    });

    it.each([
      "LIVE_WS_URL",
      "LIVE_DATABASE_URL",
      "LIVE_PROGRAM_ID",
      "LIVE_USDG_MINT",
      "LIVE_FEE_RESERVE_SIGNER",
      "LIVE_REGISTRAR_SIGNER",
    ])("refuses a live environment without %s, naming it", (name) => {
      const env: NodeJS.ProcessEnv = { ...live, [name]: "" };
      expectRefused(env, name);
    });

    it.each([
      [
        { ...live, LIVE_DATABASE_URL: "/tmp/same.sqlite", DATABASE_URL: "/tmp/same.sqlite" },
        "LIVE_DATABASE_URL",
      ],
      [{ ...live, LIVE_FEE_RESERVE_SIGNER: "/etc/cpay/reserve.json" }, "LIVE_FEE_RESERVE_SIGNER"],
      [{ ...live, LIVE_PROGRAM_ID: "not-an-address" }, "LIVE_PROGRAM_ID"],
      [{ ...live, LIVE_PROGRAM_SHA256S: "abc" }, "LIVE_PROGRAM_SHA256S"],
      [{ RESERVE_MIN_LAMPORTS: "-1" }, "RESERVE_MIN_LAMPORTS"],
      [{ MAINNET_RPC_URL: "https://api.mainnet-beta.solana.com" }, "LIVE_RPC_URL"],
      [
        { TEST_FEE_RESERVE_SIGNER: "file:/k.json", SOLANA_RPC_URL: "https://api.devnet.solana.com" },
        "SOLANA_WS_URL",
      ],
    ])("refuses %o naming %s", expectRefused);

    it("describes the test environment without a manifest when TEST_FEE_RESERVE_SIGNER is set (devnet)", () => {
      const env = {
        TEST_FEE_RESERVE_SIGNER: "file:/etc/cpay/devnet-reserve.json",
        TEST_REGISTRAR_SIGNER: "file:/etc/cpay/devnet-registrar.json",
        TEST_USDG_MINT: live.LIVE_USDG_MINT,
        TEST_HELIUS_API_KEY: "d3v",
      };
      const { cluster } = loadConfig(env, dataDir()).environments.test;
      expect(cluster).toMatchObject({
        kind: "explicit",
        rpcUrl: "https://devnet.helius-rpc.com/?api-key=d3v",
        programId: live.LIVE_PROGRAM_ID,
      });
      expect(() => loadConfig({ ...env, TEST_USDG_MINT: "" }, dataDir())).toThrow("TEST_USDG_MINT");
    });
  });
});
