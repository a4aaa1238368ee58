/**
 * API keys (spec section 5, DESIGN section 3): `svc_test_` or `svc_live_` + 32 random bytes as
 * 43 base64url characters. Only the SHA-256 hash (hex) is stored; a key is found by hashing what
 * the caller sent. 256 random bits make a plain hash safe (no dictionary to try), and a lookup
 * by hash compares no secret bytes in a data-dependent way.
 */
import { createHash, randomBytes } from "node:crypto";

export type KeyEnvironment = "test" | "live";

const KEY_PATTERN = /^svc_(test|live)_[A-Za-z0-9_-]{43}$/;

export interface NewApiKey {
  readonly value: string;
  readonly hash: string;
  readonly last4: string;
}

/** A fresh key for `environment`: the value (shown once), its hash and its last 4 characters. */
export function generateApiKey(environment: KeyEnvironment): NewApiKey {
  const value = `svc_${environment}_${randomBytes(32).toString("base64url")}`;
  return { value, hash: hashApiKey(value), last4: value.slice(-4) };
}

export function hashApiKey(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** The environment of a well-formed key, or null for anything else. */
export function environmentOfKey(value: string): KeyEnvironment | null {
  const match = KEY_PATTERN.exec(value);
  return match === null ? null : (match[1] as KeyEnvironment);
}
