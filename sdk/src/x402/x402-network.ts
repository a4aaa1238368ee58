/**
 * Which x402 network a cluster is: x402 v2 names Solana networks by CAIP-2,
 * `solana:<the first 32 characters of the genesis hash>`. So mainnet-beta, devnet and testnet get
 * the ids the official packages list (`SOLANA_MAINNET_CAIP2`, ... of `@x402/svm`), and a localnet
 * gets an id of its own, from its own genesis hash: an agent pays a requirement only on the cluster
 * its chain port reads, whichever that is.
 */

/** CAIP-2 namespace of Solana networks. */
const SOLANA_NAMESPACE = "solana";
/** CAIP-2 references are at most 32 characters: the genesis hash is cut there. */
const CAIP2_REFERENCE_LENGTH = 32;

/** The CAIP-2 id of the cluster whose genesis hash is `genesisHash` (base58). */
export function solanaNetworkOf(genesisHash: string): `solana:${string}` {
  return `${SOLANA_NAMESPACE}:${genesisHash.slice(0, CAIP2_REFERENCE_LENGTH)}`;
}
