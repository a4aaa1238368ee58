/**
 * Where the holder's browser opens a transaction: the Solana explorer of the cluster this
 * environment runs on, named by the cluster's genesis hash (what the service checked at start), not
 * by a setting that could disagree with it. A localnet is shown through the explorer's custom-RPC
 * mode at the localnet's own RPC URL (its manifest's, on this machine). Any other cluster has no
 * public explorer to send a holder to: no link, rather than a link to the wrong cluster's page.
 */

/** Genesis hashes of the public clusters and the explorer's `cluster` parameter for each. */
const PUBLIC_CLUSTERS: Readonly<Record<string, string | null>> = {
  "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d": null, // mainnet-beta: the explorer's default
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG: "devnet",
  "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY": "testnet",
};

/** The placeholder a page replaces with the transaction's base58 signature. */
export const SIGNATURE_PLACEHOLDER = "{signature}";

/**
 * The explorer URL of a transaction with `{signature}` in place of its signature, or null when the
 * cluster has no explorer a holder can use. `localnetRpcUrl`: set only for a localnet.
 */
export function explorerTransactionUrl(genesisHash: string, localnetRpcUrl: string | null): string | null {
  const base = `https://explorer.solana.com/tx/${SIGNATURE_PLACEHOLDER}`;
  if (Object.hasOwn(PUBLIC_CLUSTERS, genesisHash)) {
    const cluster = PUBLIC_CLUSTERS[genesisHash];
    return cluster === null ? base : `${base}?cluster=${cluster}`;
  }
  if (localnetRpcUrl === null) return null;
  return `${base}?cluster=custom&customUrl=${encodeURIComponent(localnetRpcUrl)}`;
}
