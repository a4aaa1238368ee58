/**
 * The `tx_...` id the service gives the hold at a PendingTransaction account: derived from the
 * account's address, not drawn, so whoever records the hold first (the API, the indexer, the relay)
 * names it the same — and an agent can seal a hold's amount to its owner, bound to that id, before
 * the hold exists (the address follows from the agent's next hold nonce). Format: `tx_` + 26
 * lowercase base32 characters of SHA-256("cpay hold " || address)[0..16].
 */
import { sha256 } from "@noble/hashes/sha2";
import { idFromBytes } from "./ids";

/** The id of the hold whose PendingTransaction account is `pending` (base58). */
export function holdTransactionId(pending: string): string {
  return idFromBytes("tx", sha256(new TextEncoder().encode(`cpay hold ${pending}`)).subarray(0, 16));
}
