/**
 * The format in which an account holder receives its confidential keys (once, at account creation):
 * the per-account secret, from which the SDK re-derives both keys (keys.ts).
 *
 * Format v1: standard padded base64 of 33 bytes = [0x01 version][32-byte secret] (44 characters).
 * A future scheme gets a new version byte; importers reject versions they do not know rather than
 * guess. Decoding is strict (canonical base64 only) so two strings never name the same key.
 */
import { ConfidentialError } from "./errors";
import { CONFIDENTIAL_SECRET_LENGTH } from "./keys";

export const KEY_EXPORT_VERSION = 1;

/** Encodes a per-account secret for the account holder (format v1, see file doc). */
export function exportConfidentialSecret(secret: Uint8Array): string {
  if (secret.length !== CONFIDENTIAL_SECRET_LENGTH) {
    throw new ConfidentialError(
      "invalid_secret",
      `the confidential secret must be ${CONFIDENTIAL_SECRET_LENGTH} bytes`,
    );
  }
  const bytes = new Uint8Array(1 + CONFIDENTIAL_SECRET_LENGTH);
  bytes[0] = KEY_EXPORT_VERSION;
  bytes.set(secret, 1);
  return Buffer.from(bytes).toString("base64");
}

/** Decodes an exported key back to the per-account secret; throws `invalid_secret` on anything else. */
export function importConfidentialSecret(exported: string): Uint8Array {
  const bytes = decodeStrictBase64(exported);
  if (bytes === null || bytes.length !== 1 + CONFIDENTIAL_SECRET_LENGTH) {
    throw new ConfidentialError("invalid_secret", "not an exported confidential key");
  }
  if (bytes[0] !== KEY_EXPORT_VERSION) {
    throw new ConfidentialError("invalid_secret", `unknown confidential key export version ${bytes[0]}`);
  }
  return bytes.slice(1);
}

/** Standard padded base64 that re-encodes to itself, else null (Node's decoder skips bad input). */
export function decodeStrictBase64(text: string): Uint8Array | null {
  if (typeof text !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const bytes = Buffer.from(text, "base64");
  return bytes.toString("base64") === text ? new Uint8Array(bytes) : null;
}
