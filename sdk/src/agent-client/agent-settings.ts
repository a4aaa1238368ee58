/**
 * What a self-custody agent's process is given, and nothing else: the service's URL, the agent's
 * own API key, its signer secret (handed over once when the agent was created with
 * `"custody": "self"`), its confidential secret (derived by its owner), and a Solana RPC to read its
 * accounts from. The same six environment variables start `examples/agent` and the local MCP
 * server (`@cpay/mcp`), so one set of settings serves an agent's host whichever it runs.
 */
export interface AgentSettings {
  readonly apiUrl: string;
  readonly apiKey: string;
  /** Base58 ed25519 seed (the create response's `signer_secret`). */
  readonly signerSecret: string;
  /** The owner-derived confidential secret (exportConfidentialSecret form). */
  readonly confidentialSecret: string;
  readonly rpcUrl: string;
  readonly wsUrl: string;
}

/** The environment variable of each setting. */
export const AGENT_SETTING_NAMES = {
  apiUrl: "CPAY_API_URL",
  apiKey: "CPAY_AGENT_API_KEY",
  signerSecret: "CPAY_AGENT_SIGNER_SECRET",
  confidentialSecret: "CPAY_AGENT_CONFIDENTIAL_SECRET",
  rpcUrl: "SOLANA_RPC_URL",
  wsUrl: "SOLANA_WS_URL",
} as const;

/**
 * The local MCP server's one setting beyond the six (`@cpay/mcp`: the USDG amount above which it
 * asks the human first), named here, in a module with no imports, so a browser page writing a host's
 * configuration (the dashboard's "Connect an agent") spells it as the server reads it.
 */
export const MCP_CONFIRM_ABOVE_SETTING = "CPAY_MCP_CONFIRM_ABOVE";

/** The settings as the environment of the agent's process carries them (what `agentSettingsFromEnv` reads). */
export function agentSettingsEnv(settings: AgentSettings): Record<string, string> {
  return Object.fromEntries(
    Object.entries(AGENT_SETTING_NAMES).map(([key, name]) => [name, settings[key as keyof AgentSettings]]),
  );
}

/** Reads the settings from `env`; throws naming every variable that is missing or empty. */
export function agentSettingsFromEnv(env: NodeJS.ProcessEnv): AgentSettings {
  const missing = Object.values(AGENT_SETTING_NAMES).filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`set ${missing.join(", ")} (the self-custody agent's settings)`);
  const read = (key: keyof typeof AGENT_SETTING_NAMES) => env[AGENT_SETTING_NAMES[key]] as string;
  return {
    apiUrl: read("apiUrl"),
    apiKey: read("apiKey"),
    signerSecret: read("signerSecret"),
    confidentialSecret: read("confidentialSecret"),
    rpcUrl: read("rpcUrl"),
    wsUrl: read("wsUrl"),
  };
}
