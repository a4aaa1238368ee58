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
 * it, and 256 random bits are not guessed), so the challenge does not verify there. The cookie
 * itself is the HTTP door's (http/challenge-cookie.ts); here are the challenge and its check.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const NONCE_BYTES = 16;
const TAG_BYTES = 16;
const LABEL = "cpay webauthn challenge binding v1\0";

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
