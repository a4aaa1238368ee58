/**
 * What the agent's process is given, and nothing else: the service's URL, the agent's own API key,
 * its signer secret (handed over once when the agent was created with `"custody": "self"`), its
 * confidential secret (derived by its owner), and a Solana RPC to read its accounts from.
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

const NAMES = {
  apiUrl: "CPAY_API_URL",
  apiKey: "CPAY_AGENT_API_KEY",
  signerSecret: "CPAY_AGENT_SIGNER_SECRET",
  confidentialSecret: "CPAY_AGENT_CONFIDENTIAL_SECRET",
  rpcUrl: "SOLANA_RPC_URL",
  wsUrl: "SOLANA_WS_URL",
} as const;

export function settingsFromEnv(env: NodeJS.ProcessEnv): AgentSettings {
  const missing = Object.values(NAMES).filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`set ${missing.join(", ")} (examples/agent/README.md)`);
  const read = (key: keyof typeof NAMES) => env[NAMES[key]] as string;
  return {
    apiUrl: read("apiUrl"),
    apiKey: read("apiKey"),
    signerSecret: read("signerSecret"),
    confidentialSecret: read("confidentialSecret"),
    rpcUrl: read("rpcUrl"),
    wsUrl: read("wsUrl"),
  };
}
