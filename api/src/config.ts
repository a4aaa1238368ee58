/**
 * Service configuration from the environment, with the embedded defaults written down here (and
 * in api/README.md). Every value is validated at start-up; a bad one stops the service with a
 * message naming the variable.
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `PORT` | 3000 | HTTP port of `/v1` |
 * | `HOST` | 127.0.0.1 | interface to listen on |
 * | `DATABASE_URL` | `./data/cpay.sqlite` | SQLite file path, or `postgres://...` |
 * | `SERVICE_MASTER_KEY` | (dev only) `./data/master.key`, created on first start | 32 bytes hex/base64 sealing the vault |
 * | `RATE_LIMIT_PER_MINUTE` | 600 | requests per API key per minute |
 * | `LOG_LEVEL` | info | pino level |
 * | `WEBHOOKS_ALLOW_LOCAL` | unset | `1` admits http and local addresses as webhook URLs (local development and tests only) |
 * | `RELAY_DAILY_FEE_CAP_LAMPORTS` | 100000000 | what the reserve may be out per self-custody agent per UTC day: fees plus rent not returned (0.1 SOL) |
 * | `RELAY_RATE_LIMIT_PER_MINUTE` | 60 | relay requests per agent per minute |
 * | `RESERVE_DAILY_BUDGET_LAMPORTS` | 1000000000 | what the fee reserve may be out per account (an agent's counted to its owner) per UTC day: fees plus rent deposits not seen coming back, each transaction reserved at its maximum before it is signed (1 SOL) |
 * | `MAINNET_RPC_URL` | must be unset | this build has no mainnet-beta chain port: `svc_live_` keys are always refused, and setting it stops the service rather than let live keys act on the test cluster |
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { generateMasterKeyHex, type MasterKey, parseMasterKey } from "./vault/vault";

export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly masterKey: MasterKey;
  /** Where the master key came from, for the start banner (never the key itself). */
  readonly masterKeySource: "environment" | "development file";
  readonly rateLimitPerMinute: number;
  readonly logLevel: string;
  /** `WEBHOOKS_ALLOW_LOCAL=1`: webhook URLs may be http and resolve to local addresses (tests only). */
  readonly webhooksAllowLocal: boolean;
  /** Lamports the reserve may be out per self-custody agent per UTC day for relayed transactions (fees and rent). */
  readonly relayDailyFeeCapLamports: number;
  /** Relay requests per agent per minute (beside the per-key limit). */
  readonly relayRateLimitPerMinute: number;
  /** Lamports the fee reserve may be out per account (agents count to their owner) per UTC day. */
  readonly reserveDailyBudgetLamports: number;
  /** Always false in this build: there is no mainnet-beta chain port, so live keys are refused. */
  readonly liveModeAvailable: false;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** An integer setting of `env` within [min, max], or `fallback` when unset; `ConfigError` otherwise. */
export function integerFromEnv(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

/**
 * Reads the configuration. `dataDir` holds the SQLite file and the development master key; when
 * SERVICE_MASTER_KEY is unset, a key is created there once (mode 0600) — fine for a local
 * cluster, never for real funds (set the variable, from a KMS, in production).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, dataDir = resolve("data")): ServiceConfig {
  const fromEnv = env.SERVICE_MASTER_KEY;
  let masterKey: MasterKey;
  let masterKeySource: ServiceConfig["masterKeySource"];
  try {
    if (fromEnv !== undefined && fromEnv !== "") {
      masterKey = parseMasterKey(fromEnv);
      masterKeySource = "environment";
    } else {
      const file = resolve(dataDir, "master.key");
      if (!existsSync(file)) {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, `${generateMasterKeyHex()}\n`, { mode: 0o600, flag: "wx" });
      }
      masterKey = parseMasterKey(readFileSync(file, "utf8"));
      masterKeySource = "development file";
    }
  } catch (error) {
    throw new ConfigError(`SERVICE_MASTER_KEY: ${(error as Error).message}`);
  }
  if (env.MAINNET_RPC_URL !== undefined && env.MAINNET_RPC_URL !== "") {
    // Accepting it would let svc_live_ keys authenticate while every request still reached the
    // embedded test cluster; refusing to start is the only honest answer until an RPC port exists.
    throw new ConfigError(
      "MAINNET_RPC_URL is set, but this build cannot reach mainnet-beta (it has no RPC chain port); unset it",
    );
  }
  const logLevel = env.LOG_LEVEL ?? "info";
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be a pino level, got "${logLevel}"`);
  }
  return {
    port: integerFromEnv(env, "PORT", 3000, 0, 65535),
    host: env.HOST ?? "127.0.0.1",
    databaseUrl: env.DATABASE_URL ?? resolve(dataDir, "cpay.sqlite"),
    masterKey,
    masterKeySource,
    rateLimitPerMinute: integerFromEnv(env, "RATE_LIMIT_PER_MINUTE", 600, 1, 1_000_000_000),
    logLevel,
    liveModeAvailable: false,
    webhooksAllowLocal: env.WEBHOOKS_ALLOW_LOCAL === "1",
    relayDailyFeeCapLamports: integerFromEnv(
      env,
      "RELAY_DAILY_FEE_CAP_LAMPORTS",
      100_000_000,
      0,
      1_000_000_000_000,
    ),
    relayRateLimitPerMinute: integerFromEnv(env, "RELAY_RATE_LIMIT_PER_MINUTE", 60, 1, 1_000_000),
    reserveDailyBudgetLamports: integerFromEnv(
      env,
      "RESERVE_DAILY_BUDGET_LAMPORTS",
      1_000_000_000,
      0,
      1_000_000_000_000,
    ),
  };
}
