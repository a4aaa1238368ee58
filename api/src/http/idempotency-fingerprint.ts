/**
 * What makes two `Idempotency-Key` requests "the same", stored as `idempotency_keys.request_hash`:
 * an HMAC-SHA256, never a plain hash. A request body can hold a confidential amount and a memo; an
 * unkeyed hash of a body whose shape is known gives the amount back to anyone who reads the table
 * (an archived SQLite file, a backup, a read replica) by trying every small amount. The HMAC key is
 * derived from the master key (HKDF-SHA256 with its own label), so it lives in memory only, next to
 * the vault's key, and a table without the master key reveals nothing.
 *
 * The request is named by its route (method and route id, not the URL text: Express matches paths
 * case-insensitively and with an optional trailing slash, so `/V1/Transfers/` is the same request),
 * its validated path parameters, and its parsed body in canonical JSON (keys sorted).
 */
import { createHmac, hkdfSync } from "node:crypto";
import type { MasterKey } from "../core/vault-crypto";

const LABEL = "cpay/idempotency-fingerprint/v1";
const derived = new WeakMap<MasterKey, Buffer>();

/** The fingerprint key of `masterKey`: HKDF-SHA256, derived once per key object, never stored. */
function fingerprintKey(masterKey: MasterKey): Buffer {
  let key = derived.get(masterKey);
  if (key === undefined) {
    key = Buffer.from(hkdfSync("sha256", masterKey.bytes, new Uint8Array(0), LABEL, 32));
    derived.set(masterKey, key);
  }
  return key;
}

/** HMAC-SHA256 (hex) over the route, its path parameters and the body (see the module doc). */
export function requestFingerprint(
  masterKey: MasterKey,
  request: {
    readonly method: string;
    readonly route: string;
    readonly params: unknown;
    readonly body: unknown;
  },
): string {
  return createHmac("sha256", fingerprintKey(masterKey))
    .update(`${request.method.toUpperCase()} ${request.route}\n`)
    .update(canonicalJson({ params: request.params ?? null, body: request.body ?? null }))
    .digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
