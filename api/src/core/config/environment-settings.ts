/**
 * The settings of the two environments, each a world of its own (as test and live mode are at a
 * card processor): `svc_test_` keys reach only the test environment, `svc_live_` keys only the live
 * one, each with its own database, cluster, program, mint, fee reserve and registrar.
 *
 * The test environment is the localnet's manifest (`LOCALNET_DIR`, `SOLANA_RPC_URL`/`SOLANA_WS_URL`)
 * unless `TEST_FEE_RESERVE_SIGNER` is set: then it is described like the live one (devnet), with
 * `SOLANA_RPC_URL`/`SOLANA_WS_URL` or `TEST_HELIUS_API_KEY`, `TEST_PROGRAM_ID`, `TEST_USDG_MINT`,
 * `TEST_REGISTRAR_SIGNER`. The live environment exists when `LIVE_RPC_URL` or `LIVE_HELIUS_API_KEY`
 * is set, and then needs every `LIVE_` setting; a missing one stops the service naming it.
 */
import { resolve } from "node:path";
import { ConfigError } from "@cpay/ledger/config";
import { AGENT_POLICY_PROGRAM_ADDRESS } from "@cpay/sdk";
import { isAddress } from "@solana/kit";
import { builtProgramPath } from "./built-program-path";
import { parseSignerSetting, type SignerSetting } from "./signer-setting";

export type EnvironmentName = "test" | "live";

/** A cluster described by addresses and signers (devnet, mainnet-beta). */
export interface ExplicitCluster {
  readonly kind: "explicit";
  readonly rpcUrl: string;
  readonly wsUrl: string;
  /** The RPC as it may be printed: a Helius URL carries its API key, so it is named instead. */
  readonly rpcDescription: string;
  readonly programId: string;
  readonly usdgMint: string;
  readonly feeReserve: SignerSetting;
  readonly registrar: SignerSetting;
}

/** The localnet found through the manifest it writes beside its chain store. */
export interface ManifestCluster {
  readonly kind: "manifest";
  /** `LOCALNET_DIR/localnet.json`. */
  readonly manifestPath: string;
  readonly rpcUrl?: string;
  readonly wsUrl?: string;
}

export interface EnvironmentSettings {
  readonly name: EnvironmentName;
  readonly databaseUrl: string;
  readonly cluster: ExplicitCluster | ManifestCluster;
  /**
   * sha256 (hex) of program bytes accepted besides `target/deploy/agent_policy.so`'s
   * (`<ENV>_PROGRAM_SHA256S`): a deployed build the operator vouches for.
   */
  readonly allowedProgramSha256s: readonly string[];
  /** The fee reserve must hold at least this many lamports at start (`RESERVE_MIN_LAMPORTS`). */
  readonly reserveMinLamports: bigint;
  /**
   * Below this many lamports while running, the fee reserve is reported low (`RESERVE_WARN_LAMPORTS`):
   * a warning in the log and `cpay_fee_reserve_low 1` on the admin listener's `/metrics`.
   */
  readonly reserveWarnLamports: bigint;
  /** The build the deployed program must equal: `AGENT_POLICY_SO`, else `target/deploy/agent_policy.so`. */
  readonly builtProgramPath: string;
}

/** 0.1 SOL: about 20,000 transactions' base fees, or a few dozen rent deposits. */
export const DEFAULT_RESERVE_MIN_LAMPORTS = 100_000_000n;
/** 1 SOL: ten times the start-up floor, so an operator hears of it well before the service would refuse to start. */
export const DEFAULT_RESERVE_WARN_LAMPORTS = 1_000_000_000n;

/** The test environment's settings (always configured). */
export function testEnvironmentFromEnv(env: NodeJS.ProcessEnv, dataDir: string): EnvironmentSettings {
  const common = {
    name: "test" as const,
    databaseUrl: env.DATABASE_URL ?? resolve(dataDir, "cpay.sqlite"),
    allowedProgramSha256s: sha256List(env, "TEST_PROGRAM_SHA256S"),
    ...reserveThresholdsOf(env),
    builtProgramPath: builtProgramPath(env),
  };
  const rpcUrl = urlOf(env, "SOLANA_RPC_URL", ["http:", "https:"]);
  const wsUrl = urlOf(env, "SOLANA_WS_URL", ["ws:", "wss:"]);
  if (
    nonEmpty(env.TEST_FEE_RESERVE_SIGNER) === undefined &&
    nonEmpty(env.TEST_HELIUS_API_KEY) === undefined
  ) {
    return {
      ...common,
      cluster: {
        kind: "manifest",
        manifestPath: resolve(env.LOCALNET_DIR || resolve(dataDir, "localnet"), "localnet.json"),
        ...(rpcUrl === undefined ? {} : { rpcUrl }),
        ...(wsUrl === undefined ? {} : { wsUrl }),
      },
    };
  }
  return {
    ...common,
    cluster: explicitCluster(env, "test", {
      rpc: ["SOLANA_RPC_URL", rpcUrl],
      ws: ["SOLANA_WS_URL", wsUrl],
      helius: "TEST_HELIUS_API_KEY",
      heliusHost: "devnet.helius-rpc.com",
      prefix: "TEST_",
    }),
  };
}

/** The live environment's settings, or null when it is not configured (svc_live_ keys get 403). */
export function liveEnvironmentFromEnv(env: NodeJS.ProcessEnv): EnvironmentSettings | null {
  const rpcUrl = urlOf(env, "LIVE_RPC_URL", ["http:", "https:"]);
  if (nonEmpty(env.MAINNET_RPC_URL) !== undefined) {
    throw new ConfigError(
      "MAINNET_RPC_URL is not a setting of this service: the live environment takes LIVE_RPC_URL",
    );
  }
  if (rpcUrl === undefined && nonEmpty(env.LIVE_HELIUS_API_KEY) === undefined) return null;
  return {
    name: "live",
    databaseUrl: required(env, "LIVE_DATABASE_URL", "live"),
    allowedProgramSha256s: sha256List(env, "LIVE_PROGRAM_SHA256S"),
    ...reserveThresholdsOf(env),
    builtProgramPath: builtProgramPath(env),
    cluster: explicitCluster(env, "live", {
      rpc: ["LIVE_RPC_URL", rpcUrl],
      ws: ["LIVE_WS_URL", urlOf(env, "LIVE_WS_URL", ["ws:", "wss:"])],
      helius: "LIVE_HELIUS_API_KEY",
      heliusHost: "mainnet.helius-rpc.com",
      prefix: "LIVE_",
    }),
  };
}

function explicitCluster(
  env: NodeJS.ProcessEnv,
  environment: EnvironmentName,
  names: {
    readonly rpc: readonly [string, string | undefined];
    readonly ws: readonly [string, string | undefined];
    readonly helius: string;
    readonly heliusHost: string;
    readonly prefix: "TEST_" | "LIVE_";
  },
): ExplicitCluster {
  const [rpcName, rpcUrl] = names.rpc;
  const [wsName, wsUrl] = names.ws;
  const heliusKey = nonEmpty(env[names.helius]);
  let urls: { rpcUrl: string; wsUrl: string; rpcDescription: string };
  if (rpcUrl !== undefined) {
    if (wsUrl === undefined) {
      throw new ConfigError(`the ${environment} environment needs ${wsName} beside ${rpcName}`);
    }
    urls = { rpcUrl, wsUrl, rpcDescription: rpcUrl };
  } else if (heliusKey !== undefined) {
    const query = `?api-key=${encodeURIComponent(heliusKey)}`;
    urls = {
      rpcUrl: `https://${names.heliusHost}/${query}`,
      wsUrl: `wss://${names.heliusHost}/${query}`,
      rpcDescription: `https://${names.heliusHost} (Helius, key from ${names.helius})`,
    };
  } else {
    throw new ConfigError(
      `the ${environment} environment needs ${rpcName} (and ${wsName}) or ${names.helius}`,
    );
  }
  const signer = (name: string) => parseSignerSetting(name, required(env, name, environment));
  return {
    kind: "explicit",
    ...urls,
    programId:
      names.prefix === "TEST_"
        ? addressOf(env, "TEST_PROGRAM_ID", environment, AGENT_POLICY_PROGRAM_ADDRESS)
        : addressOf(env, "LIVE_PROGRAM_ID", environment),
    usdgMint: addressOf(env, `${names.prefix}USDG_MINT`, environment),
    feeReserve: signer(`${names.prefix}FEE_RESERVE_SIGNER`),
    registrar: signer(`${names.prefix}REGISTRAR_SIGNER`),
  };
}

function required(env: NodeJS.ProcessEnv, name: string, environment: EnvironmentName): string {
  const value = nonEmpty(env[name]);
  if (value === undefined)
    throw new ConfigError(`the ${environment} environment is configured but ${name} is not set`);
  return value;
}

function addressOf(
  env: NodeJS.ProcessEnv,
  name: string,
  environment: EnvironmentName,
  fallback?: string,
): string {
  const value = nonEmpty(env[name]) ?? fallback ?? required(env, name, environment);
  if (!isAddress(value)) throw new ConfigError(`${name} must be a base58 address, got "${value}"`);
  return value;
}

function sha256List(env: NodeJS.ProcessEnv, name: string): readonly string[] {
  const value = nonEmpty(env[name]);
  if (value === undefined) return [];
  const list = value.split(",").map((entry) => entry.trim().toLowerCase());
  for (const entry of list) {
    if (!/^[0-9a-f]{64}$/.test(entry)) {
      throw new ConfigError(
        `${name} must be comma-separated sha256 digests (64 hex digits each), got "${entry}"`,
      );
    }
  }
  return list;
}

/** The reserve's start-up floor and its running warning line; the warning is never below the floor. */
function reserveThresholdsOf(env: NodeJS.ProcessEnv): {
  readonly reserveMinLamports: bigint;
  readonly reserveWarnLamports: bigint;
} {
  const reserveMinLamports = lamportsOf(env, "RESERVE_MIN_LAMPORTS", DEFAULT_RESERVE_MIN_LAMPORTS);
  // Unset, the warning line follows a floor raised above its default; set, it must not be below it.
  const reserveWarnLamports = lamportsOf(
    env,
    "RESERVE_WARN_LAMPORTS",
    reserveMinLamports > DEFAULT_RESERVE_WARN_LAMPORTS ? reserveMinLamports : DEFAULT_RESERVE_WARN_LAMPORTS,
  );
  if (reserveWarnLamports < reserveMinLamports) {
    throw new ConfigError(
      `RESERVE_WARN_LAMPORTS (${reserveWarnLamports}) must be at least RESERVE_MIN_LAMPORTS (${reserveMinLamports}): a reserve below the start-up floor is low`,
    );
  }
  return { reserveMinLamports, reserveWarnLamports };
}

function lamportsOf(env: NodeJS.ProcessEnv, name: string, fallback: bigint): bigint {
  const value = nonEmpty(env[name]);
  if (value === undefined) return fallback;
  if (!/^\d{1,19}$/.test(value)) {
    throw new ConfigError(`${name} must be a whole number of lamports, got "${value}"`);
  }
  return BigInt(value);
}

function urlOf(env: NodeJS.ProcessEnv, name: string, protocols: readonly string[]): string | undefined {
  const value = nonEmpty(env[name]);
  if (value === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${value}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must be a ${protocols.join(" or ")} URL, got "${value}"`);
  }
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
