/** What every command needs from the global options: the admin connection and the output mode. */
import type { Command } from "commander";
import { type AdminConnection, connectAdmin } from "./admin-connection";

export interface CommandContext {
  readonly admin: AdminConnection;
  /** `--json`: print the service's JSON instead of text. */
  readonly json: boolean;
}

/** Reads `--admin-url`, `--data-dir` and `--json` from the root command. */
export function contextOf(command: Command): CommandContext {
  const options = command.optsWithGlobals<{ adminUrl?: string; dataDir?: string; json?: boolean }>();
  return {
    admin: connectAdmin({ adminUrl: options.adminUrl, dataDir: options.dataDir }),
    json: options.json === true,
  };
}

/** A handle as a URL path segment (agent handles contain `/`). */
export function handleSegment(handle: string): string {
  return encodeURIComponent(handle);
}
