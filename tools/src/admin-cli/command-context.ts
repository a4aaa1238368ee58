/** What every command needs from the global options: the admin connection and the output mode. */
import type { Command } from "commander";
import { type AdminConnection, connectAdmin } from "./admin-connection";
import { CliError, EXIT } from "./cli-error";

export interface CommandContext {
  readonly admin: AdminConnection;
  /** `--json`: print the service's JSON instead of text. */
  readonly json: boolean;
}

/** Reads `--admin-url`, `--data-dir`, `--environment` and `--json` from the root command. */
export function contextOf(command: Command): CommandContext {
  const options = command.optsWithGlobals<{
    adminUrl?: string;
    dataDir?: string;
    environment?: string;
    json?: boolean;
  }>();
  const environment = options.environment ?? "test";
  if (environment !== "test" && environment !== "live") {
    throw new CliError(`--environment must be test or live, got "${environment}"`, EXIT.usage);
  }
  return {
    admin: connectAdmin({ adminUrl: options.adminUrl, dataDir: options.dataDir, environment }),
    json: options.json === true,
  };
}

/** A handle as a URL path segment (agent handles contain `/`). */
export function handleSegment(handle: string): string {
  return encodeURIComponent(handle);
}
