/**
 * For the commands that work on the database itself rather than through the admin listener
 * (`vault`, `backup`): the service's own configuration, read from the same environment and data
 * directory the service runs with. It never creates a development master key: a missing one would
 * be a new key that opens nothing.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError, loadConfig, type ServiceConfig } from "@cpay/api/config";
import type { Command } from "commander";
import { CliError, EXIT } from "./cli-error";

/** The service configuration for `command` (its `--data-dir`, else CPAY_DATA_DIR or ./data). */
export function serviceConfigOf(command: Command, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const options = command.optsWithGlobals<{ dataDir?: string }>();
  const dataDir = resolve(options.dataDir ?? env.CPAY_DATA_DIR ?? "data");
  if ((env.SERVICE_MASTER_KEY ?? "") === "" && !existsSync(resolve(dataDir, "master.key"))) {
    throw new CliError(
      `no SERVICE_MASTER_KEY and no development key in ${dataDir}: run with the service's environment`,
      EXIT.usage,
    );
  }
  try {
    return loadConfig(env, dataDir);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
}

/**
 * DATABASE_URL as the service resolves it (api/src/core/config/environment-settings.ts: else
 * `<data dir>/cpay.sqlite`), without the rest of the configuration: a backup job needs no master
 * key, and should not be given one.
 */
export function databaseUrlOf(command: Command, env: NodeJS.ProcessEnv = process.env): string {
  const options = command.optsWithGlobals<{ dataDir?: string }>();
  return env.DATABASE_URL ?? resolve(options.dataDir ?? env.CPAY_DATA_DIR ?? "data", "cpay.sqlite");
}

/** True for a PostgreSQL URL, false for a SQLite file. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** Refuses a SQLite path with no file: opening it would make a new, empty database. */
export function requireExistingDatabase(databaseUrl: string): void {
  if (!isPostgresUrl(databaseUrl) && !existsSync(databaseUrl)) {
    throw new CliError(`no database at ${databaseUrl} (DATABASE_URL)`, EXIT.usage);
  }
}
