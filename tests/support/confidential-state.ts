/**
 * A token account's confidential state read synchronously from the simulator: for a suite's own
 * assertions (the SDK's flows read it through the chain port).
 */
import type { EmbeddedCluster } from "@cpay/localnet/cluster";
import { type ConfidentialAccountState, tokenAccountOf } from "@cpay/sdk/confidential";

export function confidentialStateOf(
  cluster: EmbeddedCluster,
  tokenAccount: string,
): ConfidentialAccountState | null {
  return tokenAccountOf(tokenAccount, cluster.getAccount(tokenAccount))?.confidential ?? null;
}
