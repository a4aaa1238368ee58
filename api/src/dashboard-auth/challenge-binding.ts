/**
 * Each WebAuthn challenge is bound to the browser that asked for it, so neither the challenge nor
 * an assertion made over it can be redeemed from another browser: the login CSRF in which an
 * attacker has the victim's browser post the attacker's own assertion (or registration) and so
 * signs the victim in to the attacker's account. An options step gives the browser a binding, 32
 * random bytes in a cookie (HttpOnly, SameSite=Strict, Path=/, living as long as a challenge, 5
 * minutes; `__Host-cpay_challenge` and Secure under an https dashboard, `cpay_challenge` over
 * http), and keeps the one the browser already holds, so two tabs can sign in at once. The challenge
 * itself carries the proof: 16 random bytes, then the first 16 bytes of SHA-256 over a label, those
 * bytes and the binding. Nothing more is stored, and the completing step recomputes it from the
 * cookie its browser sends: another browser holds another binding or none (no page script can read
 * it, and 256 random bits are not guessed), so the challenge does not verify there.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { CHALLENGE_TTL_MS } from "./challenges";
import { type DashboardSite, siteCookie } from "./dashboard-site";
import { cookieOf } from "./secret-tokens";

const BINDING = /^[A-Za-z0-9_-]{43}$/;
const NONCE_BYTES = 16;
const TAG_BYTES = 16;
const LABEL = "cpay webauthn challenge binding v1\0";

/** The binding the request's browser holds, or null (none, or not one this service made). */
export function bindingOf(site: DashboardSite, request: Request): string | null {
  const value = cookieOf(request.get("cookie"), site.challengeCookie);
  return value !== null && BINDING.test(value) ? value : null;
}

/**
 * Runs an options step with the browser's binding (a new one when it holds none) and, once the
 * step succeeded, sets the cookie that keeps it for the challenge's lifetime.
 */
export async function withBrowserBinding<T>(
  site: DashboardSite,
  request: Request,
  response: Response,
  step: (binding: string) => Promise<T>,
): Promise<T> {
  const binding = bindingOf(site, request) ?? randomBytes(32).toString("base64url");
  const result = await step(binding);
  response.setHeader("Set-Cookie", siteCookie(site, site.challengeCookie, binding, CHALLENGE_TTL_MS / 1000));
  return result;
}

function tagOf(nonce: Uint8Array, binding: string): Buffer {
  return createHash("sha256")
    .update(LABEL, "utf8")
    .update(nonce)
    .update(binding, "utf8")
    .digest()
    .subarray(0, TAG_BYTES);
}

/** A fresh challenge bound to `binding` (32 bytes, as random to the authenticator as any other). */
export function boundChallenge(binding: string): Uint8Array<ArrayBuffer> {
  const nonce = randomBytes(NONCE_BYTES);
  return new Uint8Array(Buffer.concat([nonce, tagOf(nonce, binding)]));
}

/** Whether `challenge` (base64url, as the options carried it) was made for `binding`. */
export function isBoundTo(challenge: string, binding: string | null): boolean {
  if (binding === null) return false;
  const bytes = Buffer.from(challenge, "base64url");
  if (bytes.length !== NONCE_BYTES + TAG_BYTES) return false;
  const expected = tagOf(bytes.subarray(0, NONCE_BYTES), binding);
  return timingSafeEqual(bytes.subarray(NONCE_BYTES), expected);
}
