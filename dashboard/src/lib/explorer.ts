/**
 * The explorer link of a transaction, for the cluster this service runs on. The page does not learn
 * the cluster from the API, so it is told by where the page is served: a service on this machine
 * (localhost) runs the localnet (the explorer reads it through a custom RPC URL, from the holder's
 * own browser); anywhere else the test environment is devnet. Live (mainnet-beta) signatures open
 * on devnet's explorer until the API names its cluster.
 */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function explorerTxUrl(signature: string): string {
  const base = `https://explorer.solana.com/tx/${encodeURIComponent(signature)}`;
  if (LOCAL_HOSTS.has(location.hostname)) {
    return `${base}?cluster=custom&customUrl=${encodeURIComponent("http://127.0.0.1:8899")}`;
  }
  return `${base}?cluster=devnet`;
}
