/**
 * Identifiers the service issues: `<prefix>_` + 26 lowercase base32 characters of 16 random bytes.
 * A transfer's 16 bytes are also its on-chain transfer id (the program's `transfer_id: [u8; 16]`),
 * so a record found on chain names its API transfer without a lookup table.
 */
import { randomBytes } from "node:crypto";
import { idFromBytes as idOfBytes } from "@cpay/sdk/api";

export type IdPrefix =
  | "acct"
  | "policy"
  | "tr"
  | "tx"
  | "key"
  | "evt"
  | "req"
  | "wh"
  | "dlv"
  | "pk"
  | "ses"
  | "chl"
  | "enr";

export function newId(prefix: IdPrefix): string {
  return idFromBytes(prefix, randomBytes(16));
}

/**
 * The `tx_...` id of the hold at `pending` (its on-chain account): derived, not drawn, so whoever
 * records the hold first — the API, the indexer, or the relay answering the agent — names it the
 * same, and an agent can seal the hold's amount to its owner before it exists. Defined once, in
 * `@cpay/sdk/sealed`. A hold account's address is never reused (the agent's hold nonce only grows).
 */
export { holdTransactionId } from "@cpay/sdk/sealed";

// Request ids need uniqueness, not secrecy: a random per-process prefix and a counter (cheaper than
// 16 fresh random bytes on every request).
const requestIdPrefix = randomBytes(10);
let requestCounter = 0;

/** A `req_...` id, unique across processes and restarts. */
export function newRequestId(): string {
  requestCounter = (requestCounter + 1) % 2 ** 48;
  const bytes = new Uint8Array(16);
  bytes.set(requestIdPrefix, 0);
  let counter = requestCounter;
  for (let index = 15; index >= 10; index--) {
    bytes[index] = counter % 256;
    counter = Math.floor(counter / 256);
  }
  return idFromBytes("req", bytes);
}

/**
 * The id of 16 bytes (RFC 4648 base32, lowercase, unpadded: 26 characters), and back. Defined once,
 * in `@cpay/sdk/api`: a self-custody agent names the transfers it makes the same way.
 */
export const idFromBytes: (prefix: IdPrefix, bytes: Uint8Array) => string = idOfBytes;
export { bytesOfId } from "@cpay/sdk/api";

/** Now as the service writes timestamps: ISO 8601 UTC with milliseconds. */
export function nowIso(): string {
  return new Date().toISOString();
}
