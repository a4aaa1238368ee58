/**
 * A token account's confidential state for a suite's own assertions: read synchronously from the
 * simulator, or awaited through a chain port (what suites that also run over RPC use).
 */
import type { EmbeddedCluster } from "@cpay/localnet/cluster";
import type { ChainPort } from "@cpay/sdk/chain";
import { type ConfidentialAccountState, tokenAccountOf } from "@cpay/sdk/confidential";

export function confidentialStateOf(
  cluster: EmbeddedCluster,
  tokenAccount: string,
): ConfidentialAccountState | null {
  return tokenAccountOf(tokenAccount, cluster.getAccount(tokenAccount))?.confidential ?? null;
}

/** The same, read through a chain port (in process or over RPC): what suites running in both modes use. */
export async function confidentialStateOn(
  chain: ChainPort,
  tokenAccount: string,
): Promise<ConfidentialAccountState | null> {
  return tokenAccountOf(tokenAccount, await chain.getAccount(tokenAccount))?.confidential ?? null;
}
