/**
 * Settings of the admin surface (what the spec leaves to a dashboard, reached by the admin CLI):
 * the loopback port and the admin token. The token is `ADMIN_TOKEN` when set; otherwise a random
 * token is written once to `<data dir>/admin.token` (mode 0600), where the CLI on the same machine
 * reads it. Whoever can read that file can administer the service, exactly like the master key
 * file next to it.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError } from "@cpay/ledger/config";
import { ENVIRONMENT_HEADER } from "@cpay/sdk/api";

export const DEFAULT_ADMIN_PORT = 3001;
export const ADMIN_TOKEN_FILE = "admin.token";
/** Shortest `ADMIN_TOKEN` accepted: it is the only thing between the network and every account. */
const MIN_TOKEN_LENGTH = 32;

export interface AdminSettings {
  readonly port: number;
  readonly token: string;
  /** For the start banner (never the token itself). */
  readonly tokenSource: "environment" | "file";
  readonly tokenFile: string | null;
}

/** Reads `ADMIN_PORT` and `ADMIN_TOKEN`; creates the token file when needed. ConfigError if invalid. */
export function loadAdminSettings(env: NodeJS.ProcessEnv, dataDir: string): AdminSettings {
  const port = adminPortOf(env);
  const fromEnv = env.ADMIN_TOKEN;
  if (fromEnv !== undefined && fromEnv !== "") {
    if (fromEnv.length < MIN_TOKEN_LENGTH || /\s/.test(fromEnv)) {
      throw new ConfigError(`ADMIN_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters without spaces`);
    }
    return { port, token: fromEnv, tokenSource: "environment", tokenFile: null };
  }
  const file = resolve(dataDir, ADMIN_TOKEN_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  }
  return { port, token: readAdminTokenFile(file), tokenSource: "file", tokenFile: file };
}

/** `ADMIN_PORT` (default 3001; 0 = any free port). */
export function adminPortOf(env: NodeJS.ProcessEnv): number {
  const text = env.ADMIN_PORT;
  if (text === undefined || text === "") return DEFAULT_ADMIN_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`ADMIN_PORT must be an integer from 0 to 65535, got "${text}"`);
  }
  return port;
}

/** The token stored in `file`; ConfigError when the file is missing or empty. */
export function readAdminTokenFile(file: string): string {
  let token: string;
  try {
    token = readFileSync(file, "utf8").trim();
  } catch (error) {
    throw new ConfigError(`cannot read the admin token at ${file}: ${(error as Error).message}`);
  }
  if (token.length === 0) throw new ConfigError(`the admin token file ${file} is empty`);
  return token;
}

/**
 * The request header naming the environment an admin request acts on (`test` when absent): the
 * one the dashboard's requests name theirs with.
 */
export const ADMIN_ENVIRONMENT_HEADER = ENVIRONMENT_HEADER;
