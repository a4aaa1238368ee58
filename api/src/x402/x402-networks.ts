/**
 * The x402 networks an environment's facilitator settles on: its cluster's own CAIP-2 id (`solana:`
 * + the genesis hash's first 32 characters: mainnet-beta, devnet and testnet get the official ids),
 * and, in the test environment, the aliases `X402_TEST_NETWORK_ALIASES` adds (a localnet standing
 * in for devnet, for clients that know only the official ids; core/config/x402-settings.ts).
 */
import { solanaNetworkOf } from "@cpay/sdk/x402";
import type { ServiceContext } from "../core/service-context";

export function x402NetworksOf(service: ServiceContext): readonly `solana:${string}`[] {
  const own = solanaNetworkOf(service.chain.genesisHash);
  const aliases = service.environment === "test" ? service.config.x402TestNetworkAliases : [];
  return [own, ...aliases.filter((alias) => alias !== own)];
}
