/**
 * How the CLI reaches the running service's admin listener: its URL (`--admin-url`,
 * `CPAY_ADMIN_URL`, else `http://127.0.0.1:$ADMIN_PORT`, port 3001 by default) and the admin
 * token (`ADMIN_TOKEN`, else the file the service wrote: `<data dir>/admin.token`, the data dir
 * being `--data-dir`, `CPAY_DATA_DIR` or `./data`). Requests are JSON; an error answer becomes a
 * CliError carrying the service's message.
 */
import { resolve } from "node:path";
import { ADMIN_ENVIRONMENT_HEADER, ADMIN_TOKEN_FILE, adminPortOf, readAdminTokenFile } from "@cpay/api/admin";
import { CliError, EXIT } from "./cli-error";

export interface ConnectionOptions {
  readonly adminUrl?: string;
  readonly dataDir?: string;
  /** The environment every request acts on (`--environment`), default test. */
  readonly environment?: "test" | "live";
}

export interface AdminConnection {
  readonly url: string;
  request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T>;
}

/** Resolves URL and token; CliError (usage) when neither a token nor its file is available. */
export function connectAdmin(
  options: ConnectionOptions,
  env: NodeJS.ProcessEnv = process.env,
): AdminConnection {
  let url: string;
  let token: string;
  try {
    url = (options.adminUrl ?? env.CPAY_ADMIN_URL ?? `http://127.0.0.1:${adminPortOf(env)}`).replace(
      /\/+$/,
      "",
    );
    token =
      env.ADMIN_TOKEN !== undefined && env.ADMIN_TOKEN !== ""
        ? env.ADMIN_TOKEN
        : readAdminTokenFile(resolve(options.dataDir ?? env.CPAY_DATA_DIR ?? "data", ADMIN_TOKEN_FILE));
  } catch (error) {
    throw new CliError(
      `${(error as Error).message}\n(start the service first — bash scripts/start.sh — or set ADMIN_TOKEN)`,
      EXIT.usage,
    );
  }
  return {
    url,
    async request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
      let response: Response;
      try {
        response = await fetch(`${url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            [ADMIN_ENVIRONMENT_HEADER]: options.environment ?? "test",
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      } catch {
        throw new CliError(
          `cannot reach the service's admin listener at ${url}: is the service running (bash scripts/start.sh)?`,
          EXIT.unreachable,
        );
      }
      const text = await response.text();
      let json: unknown = null;
      try {
        json = text === "" ? null : JSON.parse(text);
      } catch {
        // A non-JSON answer is reported below with its status.
      }
      if (!response.ok) {
        const message = (json as { error?: { message?: string } } | null)?.error?.message;
        throw new CliError(message ?? `the admin listener answered ${response.status}`, EXIT.refused);
      }
      return json as T;
    },
  };
}
