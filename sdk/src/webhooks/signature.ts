/**
 * Webhook signatures (spec 6.3, DESIGN section 8): every delivery carries
 * `X-Service-Signature` = lowercase hex HMAC-SHA256 of the raw request body, keyed with the
 * subscription's secret (`whsec_...`), plus `X-Service-Event-Id` and `X-Service-Timestamp` (unix
 * seconds). The service signs with `signWebhookBody`; a receiver checks with `verifyWebhook`
 * BEFORE parsing or acting on the body, in constant time. The HMAC covers the body only (spec
 * 6.3); the body carries its own `event_id` and `timestamp`, so a receiver also refuses a stale
 * `X-Service-Timestamp` and dedupes by event id, and a captured delivery cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-service-signature";
export const EVENT_ID_HEADER = "x-service-event-id";
export const TIMESTAMP_HEADER = "x-service-timestamp";

/** How old a delivery's `X-Service-Timestamp` may be by default: 5 minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Lowercase hex HMAC-SHA256 of `rawBody` under `secret`, as the `X-Service-Signature` header. */
export function signWebhookBody(secret: string, rawBody: string | Uint8Array): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

export type WebhookVerification =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: "missing_signature" | "signature_mismatch" | "stale_timestamp" };

/**
 * Checks a delivery: the signature must equal the HMAC of the exact raw bytes received (compared
 * in constant time), and, when `timestamp` is given, it must be within `toleranceSeconds` of
 * `nowSeconds`. Never throws for bad input; returns why it refused.
 */
export function verifyWebhook(input: {
  readonly secret: string;
  readonly rawBody: string | Uint8Array;
  readonly signature: string | null | undefined;
  readonly timestamp?: string | null;
  readonly toleranceSeconds?: number;
  readonly nowSeconds?: number;
}): WebhookVerification {
  const { signature } = input;
  if (signature === null || signature === undefined || signature === "") {
    return { ok: false, reason: "missing_signature" };
  }
  const expected = Buffer.from(signWebhookBody(input.secret, input.rawBody), "utf8");
  const given = Buffer.from(signature.trim().toLowerCase(), "utf8");
  // timingSafeEqual needs equal lengths; comparing against itself keeps the time independent of
  // where a wrong signature differs.
  const equal =
    given.length === expected.length
      ? timingSafeEqual(given, expected)
      : !timingSafeEqual(expected, expected);
  if (!equal) return { ok: false, reason: "signature_mismatch" };
  if (input.timestamp !== undefined) {
    const sent = Number(input.timestamp);
    const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
    const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    if (!Number.isInteger(sent) || Math.abs(now - sent) > tolerance)
      return { ok: false, reason: "stale_timestamp" };
  }
  return { ok: true };
}
