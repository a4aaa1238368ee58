/**
 * The explorer link of a transaction, for the cluster this environment runs on: the session names
 * it (`explorer_transaction_url`, built by the service from the cluster's genesis hash), so a live
 * signature opens on mainnet's explorer and a devnet one on devnet's. Null: no explorer to open.
 */
import { getState } from "../state";

export function explorerTxUrl(signature: string): string | null {
  const template = getState().session?.explorer_transaction_url ?? null;
  return template === null ? null : template.replace("{signature}", encodeURIComponent(signature));
}
