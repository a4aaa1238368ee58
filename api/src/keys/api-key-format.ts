/**
 * API keys (spec section 5, DESIGN section 3): `svc_test_` or `svc_live_` + 32 random bytes as
 * 43 base64url characters (bearer-secret.ts). Only the SHA-256 hash (hex) is stored; a key is found
 * by hashing what the caller sent.
 */
import { bearerSecretKind, hashBearerSecret, type KeyEnvironment } from "./bearer-secret";

export type { KeyEnvironment } from "./bearer-secret";

const API_KEY = bearerSecretKind("svc");

export interface NewApiKey {
  readonly value: string;
  readonly hash: string;
  readonly last4: string;
}

/** A fresh key for `environment`: the value (shown once), its hash and its last 4 characters. */
export function generateApiKey(environment: KeyEnvironment): NewApiKey {
  const value = API_KEY.generate(environment);
  return { value, hash: hashApiKey(value), last4: value.slice(-4) };
}

export function hashApiKey(value: string): string {
  return hashBearerSecret(value);
}

/** The environment of a well-formed key, or null for anything else. */
export function environmentOfKey(value: string): KeyEnvironment | null {
  return API_KEY.environmentOf(value);
}
