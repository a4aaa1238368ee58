/**
 * The service's bearer secrets: API keys (`svc_`), dashboard session cookies (`sess_`) and
 * enrollment links (`enr_`), each `<kind>_<environment>_` + 32 random bytes as 43 base64url
 * characters. Only SHA-256 hashes (hex) are stored: 256 random bits leave no dictionary to try, so a
 * plain hash is safe, and a lookup by hash compares no secret bytes in a data-dependent way.
 */
import { createHash, randomBytes } from "node:crypto";

export type KeyEnvironment = "test" | "live";

/** One kind of bearer secret, by its prefix. */
export interface BearerSecretKind {
  /** A fresh secret of this kind for `environment`. */
  readonly generate: (environment: KeyEnvironment) => string;
  /** The environment of a well-formed secret of this kind, or null for anything else. */
  readonly environmentOf: (value: string) => KeyEnvironment | null;
}

export function bearerSecretKind(prefix: "svc" | "sess" | "enr"): BearerSecretKind {
  const pattern = new RegExp(`^${prefix}_(test|live)_[A-Za-z0-9_-]{43}$`);
  return {
    generate: (environment) => `${prefix}_${environment}_${randomBytes(32).toString("base64url")}`,
    environmentOf: (value) => {
      const match = pattern.exec(value);
      return match === null ? null : (match[1] as KeyEnvironment);
    },
  };
}

/** What is stored of a bearer secret, and looked up by: its SHA-256, hex. */
export function hashBearerSecret(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}
