/**
 * The x402 facilitator's settings (api/src/x402): which network ids the test environment's
 * facilitator answers for besides its cluster's own (`solana:` + the genesis hash's first 32
 * characters). Clients that know only the official networks (`@x402/svm`'s, which refuses any other
 * id) can pay a localnet standing in for devnet when the test environment also answers devnet's id:
 * `X402_TEST_NETWORK_ALIASES=solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1`. The live environment answers
 * its own cluster's id only.
 */
import { ConfigError } from "@cpay/ledger/config";

/** A Solana CAIP-2 id: `solana:` and a base58 reference of 1 to 32 characters. */
const SOLANA_NETWORK = /^solana:[1-9A-HJ-NP-Za-km-z]{1,32}$/;

/** `X402_TEST_NETWORK_ALIASES` of `env` (comma-separated), each checked; none when unset. */
export function x402TestNetworkAliasesFromEnv(env: NodeJS.ProcessEnv): readonly `solana:${string}`[] {
  const value = env.X402_TEST_NETWORK_ALIASES;
  if (value === undefined || value.trim() === "") return [];
  return value.split(",").map((entry) => {
    const network = entry.trim();
    if (!SOLANA_NETWORK.test(network)) {
      throw new ConfigError(
        `X402_TEST_NETWORK_ALIASES must be comma-separated Solana CAIP-2 ids (solana:<genesis hash prefix>), got "${network}"`,
      );
    }
    return network as `solana:${string}`;
  });
}
