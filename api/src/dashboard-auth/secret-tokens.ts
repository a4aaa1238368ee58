/**
 * The dashboard's bearer secrets: session cookies `sess_test_`/`sess_live_` and enrollment links'
 * `enr_test_`/`enr_live_` tokens, bearer secrets like API keys (keys/bearer-secret.ts). The
 * environment in the prefix lets the dashboard page route a link's requests to its environment. Only
 * SHA-256 hashes are stored. The CSRF token is derived from the
 * session's cookie value, so the service stores no CSRF secret and a stolen database row signs
 * nothing; a page can learn it only from the session view, which a cross-site page cannot read.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { bearerSecretKind, hashBearerSecret, type KeyEnvironment } from "../keys/bearer-secret";

const SESSION = bearerSecretKind("sess");
const ENROLLMENT = bearerSecretKind("enr");
/** An enrollment token of the form before tokens named their environment. */
const ENVIRONMENTLESS_ENROLLMENT_PATTERN = /^enr_[A-Za-z0-9_-]{43}$/;

/** The cookie that carries a session (`__Host-` prefixed under an https dashboard: dashboard-site.ts). */
export const SESSION_COOKIE = "cpay_session";

/** The cookie that binds WebAuthn challenges to a browser (challenge-binding.ts); prefixed the same way. */
export const CHALLENGE_COOKIE = "cpay_challenge";

export function hashToken(value: string): string {
  return hashBearerSecret(value);
}

/** A fresh session cookie value for `environment`. */
export function generateSessionToken(environment: KeyEnvironment): string {
  return SESSION.generate(environment);
}

/** The environment of a well-formed session token, or null. */
export function environmentOfSessionToken(value: string): KeyEnvironment | null {
  return SESSION.environmentOf(value);
}

/** A fresh enrollment token for an account of `environment`. */
export function generateEnrollmentToken(environment: KeyEnvironment): string {
  return ENROLLMENT.generate(environment);
}

/**
 * The environment of a well-formed enrollment token, or null. A token without one (`enr_<43>`) is
 * the test environment's: links were issued in that form, valid 24 h, before they named their
 * environment, and only the test environment could be reached from the dashboard then; remove
 * this form a day after every service runs the new one. (The lengths tell the forms apart: an old
 * token whose 43 characters happen to begin with `live_` is still read as an old one.)
 */
export function environmentOfEnrollmentToken(value: string): KeyEnvironment | null {
  return ENROLLMENT.environmentOf(value) ?? (ENVIRONMENTLESS_ENROLLMENT_PATTERN.test(value) ? "test" : null);
}

/** The session's CSRF token: an HMAC of a fixed label under the cookie value. */
export function csrfTokenOf(sessionToken: string): string {
  return createHmac("sha256", sessionToken).update("cpay dashboard csrf v1").digest("base64url");
}

/** Whether `given` is the CSRF token of `sessionToken` (compared in constant time). */
export function csrfTokenMatches(sessionToken: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The value of the cookie called `name` (exactly) in a Cookie header, or null. */
export function cookieOf(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}
