/**
 * The MCP client configuration an agent's host takes (the `mcpServers` JSON of desktop clients), for
 * cpay's two MCP servers: the local one (stdio, `cpay-mcp` of `@cpay/mcp`, started by the host with
 * the agent's settings in its environment, by the names `@cpay/sdk/agent-settings` gives) and the
 * remote one (streamable HTTP at the service's `/mcp`, the agent's API key as the bearer). Plain
 * data: the page fills it and shows it once; nothing here sends anything.
 */
import { type AgentSettings, agentSettingsEnv, MCP_CONFIRM_ABOVE_SETTING } from "@cpay/sdk/agent-settings";

/**
 * What the local server needs: a self-custody agent's settings (the service, the agent's key and
 * secrets, a cluster to read; the confidential secret derived from the owner's in the page), and
 * the decimal USDG above which it asks the human in the client first (null: it never asks).
 */
export interface LocalServerSettings extends AgentSettings {
  readonly confirmAbove: string | null;
}

export interface McpClientConfig {
  readonly mcpServers: {
    readonly cpay:
      | {
          readonly command: string;
          readonly args: readonly string[];
          readonly env: Readonly<Record<string, string>>;
        }
      | {
          readonly type: "http";
          readonly url: string;
          readonly headers: Readonly<Record<string, string>>;
        };
  };
}

/**
 * The entry a host starts the local server from: `npx --no cpay-mcp` with the settings as env.
 * `--no`, so npx never fetches a package of that name from a registry (`@cpay/mcp` is this
 * repository's, not a registry's) and finds the bin of a checkout with its dependencies installed.
 */
export function localServerConfig(settings: LocalServerSettings): McpClientConfig {
  // The names the server reads them by, written once in the SDK.
  const env = agentSettingsEnv(settings);
  // Unset is "never ask" (the on-chain approval threshold still holds): leave it out, not empty.
  if (settings.confirmAbove !== null) env[MCP_CONFIRM_ABOVE_SETTING] = settings.confirmAbove;
  return { mcpServers: { cpay: { command: "npx", args: ["--no", "cpay-mcp"], env } } };
}

/** The entry a host reaches the service's remote server with: its `/mcp` URL and the bearer key. */
export function remoteServerConfig(input: {
  readonly serviceOrigin: string;
  readonly apiKey: string;
}): McpClientConfig {
  return {
    mcpServers: {
      cpay: {
        type: "http",
        url: `${input.serviceOrigin.replace(/\/+$/, "")}/mcp`,
        headers: { Authorization: `Bearer ${input.apiKey}` },
      },
    },
  };
}

/** The text shown and copied: indented, as a config file holds it. */
export function configText(config: McpClientConfig): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * The problem with an RPC or WebSocket URL the owner typed for the local server, or null: the
 * server reads the cluster over `http(s)` and subscribes over `ws(s)`.
 */
export function clusterUrlProblem(text: string, kind: "rpc" | "ws"): string | null {
  const schemes = kind === "rpc" ? ["http:", "https:"] : ["ws:", "wss:"];
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return kind === "rpc"
      ? "Give the cluster's RPC URL, such as http://127.0.0.1:8899."
      : "Give the cluster's WebSocket URL, such as ws://127.0.0.1:8900.";
  }
  return schemes.includes(url.protocol) ? null : `The URL must start with ${schemes.join("// or ")}//.`;
}
