/**
 * A self-custody agent's client, set up from its settings (agent-settings.ts) alone: the service
 * names the agent's address (`GET /v1/accounts/me` with the agent's key), the program id and the
 * USDG mint (`GET /v1/relay`); the RPC is read-only (every transaction goes through the relay); the
 * signer and the confidential keys come from the two secrets. What `examples/agent` and the local
 * MCP server (`@cpay/mcp/local-server`) both start from.
 */
import {
  address,
  createKeyPairSignerFromPrivateKeyBytes,
  getBase58Encoder,
  type TransactionSigner,
} from "@solana/kit";
import type { TAccount } from "../api/accounts";
import { type ApiClient, createApiClient } from "../api/client";
import type { TRelayInfo } from "../api/relay";
import type { ChainPort } from "../chain/chain-port";
import { connectRpcChain } from "../chain/rpc-chain";
import { importConfidentialSecret } from "../confidential/key-export";
import { type ConfidentialKeyset, deriveConfidentialKeys } from "../confidential/keys";
import { type AgentClient, createAgentClient } from "./agent-client";
import type { AgentSettings } from "./agent-settings";
import { createApiRelayTransport } from "./api-relay-transport";

export interface ConnectedAgent {
  readonly client: AgentClient;
  /** The `/v1` API with the agent's own key (its transfers, its account). */
  readonly api: ApiClient;
  /** Reads only. Closed by `close()`. */
  readonly chain: ChainPort;
  /** The agent's account, as the service answered `GET /v1/accounts/me`. */
  readonly account: TAccount;
  readonly relayInfo: TRelayInfo;
  /** The agent signer (what signs through the PDA; `@cpay/sdk/x402` pays with it too). */
  readonly signer: TransactionSigner;
  /** The agent token account's confidential keys (decrypt what only the agent may read). */
  readonly keys: ConfidentialKeyset;
  close(): Promise<void>;
}

/** Connects to the service and the cluster and builds the agent's client (see the file doc). */
export async function connectAgent(settings: AgentSettings): Promise<ConnectedAgent> {
  const api = createApiClient({ baseUrl: settings.apiUrl, apiKey: settings.apiKey });
  const [account, relayInfo] = await Promise.all([api.call("getMe", {}), api.call("getRelayInfo", {})]);
  const signer = await createKeyPairSignerFromPrivateKeyBytes(
    new Uint8Array(getBase58Encoder().encode(settings.signerSecret)),
  );
  const keys = deriveConfidentialKeys(importConfidentialSecret(settings.confidentialSecret));
  const chain = await connectRpcChain({
    rpcUrl: settings.rpcUrl,
    wsUrl: settings.wsUrl,
    programId: relayInfo.program_id,
    usdgMint: relayInfo.usdg_mint,
  });
  const client = createAgentClient({
    chain,
    relay: createApiRelayTransport(api),
    agentSigner: signer,
    agent: address(account.public_key),
    keys,
    mint: address(relayInfo.usdg_mint),
  });
  return { client, api, chain, account, relayInfo, signer, keys, close: () => chain.close() };
}
