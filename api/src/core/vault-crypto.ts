/**
 * The custody vault (DESIGN section 3): secrets sealed with AES-256-GCM under SERVICE_MASTER_KEY,
 * a fresh 12-byte nonce per record, and the record's owner and kind as associated data, so a sealed
 * secret moved to another row does not open. Sealed form (base64): `[0x01][nonce 12][ct][tag 16]`;
 * the row's `key_id` names the master key that sealed it, for rotation: the service holds the current
 * key and any previous ones (`SERVICE_MASTER_KEYS_PREVIOUS`), seals only under the current one and
 * opens under whichever a row names, until `vault reseal` has moved every row to the current key.
 *
 * Plaintext secrets exist only in memory, only while a request uses them; nothing here logs.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface MasterKey {
  /** Short fingerprint of the key (first 8 bytes of its SHA-256, hex): stored beside each record. */
  readonly id: string;
  readonly bytes: Uint8Array;
}

export class VaultError extends Error {
  override readonly name = "VaultError";
}

/** Parses SERVICE_MASTER_KEY: 32 bytes as 64 hex characters or standard base64. */
export function parseMasterKey(text: string): MasterKey {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : /^[A-Za-z0-9+/]{43}=$/.test(trimmed)
      ? Buffer.from(trimmed, "base64")
      : null;
  if (bytes === null || bytes.length !== 32) {
    throw new VaultError("SERVICE_MASTER_KEY must be 32 bytes, as 64 hex characters or base64");
  }
  return { id: createHash("sha256").update(bytes).digest("hex").slice(0, 16), bytes: new Uint8Array(bytes) };
}

/**
 * Parses SERVICE_MASTER_KEYS_PREVIOUS: comma-separated keys in SERVICE_MASTER_KEY's form, each
 * named by position in errors (never quoted).
 */
export function parseMasterKeyList(text: string): MasterKey[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part, index) => {
      try {
        return parseMasterKey(part);
      } catch {
        throw new VaultError(`key ${index + 1} must be 32 bytes, as 64 hex characters or base64`);
      }
    });
}

/**
 * The current master key and the previous ones still accepted for opening, current first, without
 * repeats (a previous key equal to the current one adds nothing).
 */
export function masterKeyring(current: MasterKey, previous: readonly MasterKey[]): readonly MasterKey[] {
  const ring = [current];
  for (const key of previous) if (!ring.some((known) => known.id === key.id)) ring.push(key);
  return ring;
}

/**
 * Opens a record that does not name its key (a stored idempotency answer): tried under each key of
 * the ring, current first. AES-GCM's tag makes a wrong key fail, never open to garbage.
 */
export function openSecretUnderAny(
  ring: readonly MasterKey[],
  accountId: string,
  kind: string,
  sealed: string,
): Uint8Array {
  let failure: unknown = new VaultError("no master key is configured");
  for (const key of ring) {
    try {
      return openSecret(key, accountId, kind, sealed);
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

/** A new random master key, as hex (for the local development default). */
export function generateMasterKeyHex(): string {
  return randomBytes(32).toString("hex");
}

function associatedData(accountId: string, kind: string): Buffer {
  return Buffer.from(`cpay/vault/v1\0${accountId}\0${kind}`, "utf8");
}

/** Seals `secret` for (accountId, kind). */
export function sealSecret(key: MasterKey, accountId: string, kind: string, secret: Uint8Array): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key.bytes, nonce);
  cipher.setAAD(associatedData(accountId, kind));
  const body = Buffer.concat([cipher.update(secret), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), nonce, body, cipher.getAuthTag()]).toString("base64");
}

/** Opens a sealed secret; VaultError if it was sealed for another row, another key, or altered. */
export function openSecret(key: MasterKey, accountId: string, kind: string, sealed: string): Uint8Array {
  const bytes = Buffer.from(sealed, "base64");
  if (bytes.length < 1 + NONCE_BYTES + TAG_BYTES || bytes[0] !== VERSION) {
    throw new VaultError("sealed secret is malformed");
  }
  const decipher = createDecipheriv("aes-256-gcm", key.bytes, bytes.subarray(1, 1 + NONCE_BYTES));
  decipher.setAAD(associatedData(accountId, kind));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  try {
    return new Uint8Array(
      Buffer.concat([
        decipher.update(bytes.subarray(1 + NONCE_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]),
    );
  } catch {
    throw new VaultError("sealed secret does not open under this master key (altered, or another row's)");
  }
}
