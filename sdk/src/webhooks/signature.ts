/**
 * Webhook signatures (spec 6.3, DESIGN section 8). Every delivery carries two signatures under the
 * subscription's secret (`whsec_...`):
 * - `X-Service-Signature` (the spec's): lowercase hex HMAC-SHA256 of the raw body, keyed with the
 *   secret's text, beside `X-Service-Event-Id` and `X-Service-Timestamp` (unix seconds). It covers
 *   the body only: `X-Service-Timestamp` is NOT authenticated, so it proves where a body came from
 *   but not when it was sent.
 * - Standard Webhooks: `webhook-id` (the event id), `webhook-timestamp` (unix seconds) and
 *   `webhook-signature`, one or more space-separated `v1,<base64 HMAC-SHA256>` entries over
 *   `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the secret
 *   after `whsec_`. During a secret rotation's grace period there is one entry per secret.
 * The service signs with `signWebhookBody` and `signWebhookV1`. A receiver calls `verifyWebhook`
 * with the request's headers BEFORE parsing or acting on the body: it checks a `v1` signature in
 * constant time and that the signed timestamp is within the tolerance, so a captured delivery
 * cannot be replayed once the window has passed; within the window, dedupe by the event id (which
 * also absorbs the service's own retries and replays, sent with fresh timestamps and signatures).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-service-signature";
export const EVENT_ID_HEADER = "x-service-event-id";
export const TIMESTAMP_HEADER = "x-service-timestamp";
export const STANDARD_ID_HEADER = "webhook-id";
export const STANDARD_TIMESTAMP_HEADER = "webhook-timestamp";
export const STANDARD_SIGNATURE_HEADER = "webhook-signature";

/** How far a delivery's signed timestamp may be from the receiver's clock by default: 5 minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Lowercase hex HMAC-SHA256 of `rawBody` under `secret`, as the `X-Service-Signature` header. */
export function signWebhookBody(secret: string, rawBody: string | Uint8Array): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

/** The HMAC key of the Standard Webhooks signature: the base64 after `whsec_` (either alphabet). */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
}

/** One `webhook-signature` entry: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`. */
export function signWebhookV1(
  secret: string,
  message: { readonly id: string; readonly timestamp: string; readonly body: string | Uint8Array },
): string {
  const hmac = createHmac("sha256", standardKey(secret)).update(`${message.id}.${message.timestamp}.`);
  return `v1,${hmac.update(message.body).digest("base64")}`;
}

export type WebhookVerification =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason:
        | "missing_signature"
        | "signature_mismatch"
        | "stale_timestamp"
        /** A timestamp was given to check beside the body-only signature, which does not cover it. */
        | "unsigned_timestamp";
    };

/** Request headers as Node (`IncomingHttpHeaders`) or fetch (`Headers`) gives them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === "string" ? value : undefined;
}

/** Constant-time equality of two strings whatever their lengths. */
function equalText(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  // timingSafeEqual needs equal lengths; comparing against itself keeps the time independent of
  // where a wrong value differs.
  return a.length === b.length ? timingSafeEqual(a, b) : !timingSafeEqual(b, b);
}

/**
 * Checks a delivery.
 * - With `headers` (recommended): a `webhook-signature` entry must equal the `v1` HMAC of
 *   `webhook-id`, `webhook-timestamp` and the exact raw bytes received (any one entry of several;
 *   compared in constant time), and the signed timestamp must be within `toleranceSeconds` of
 *   `nowSeconds`. A delivery without those three headers is refused.
 * - With `signature` (the `X-Service-Signature` value) alone: the spec's body-only check. It says
 *   nothing about when the delivery was sent, so passing `timestamp` with it is refused
 *   (`unsigned_timestamp`) rather than giving a freshness check it cannot give.
 * Never throws for bad input; returns why it refused.
 */
export function verifyWebhook(
  input: {
    readonly secret: string;
    readonly rawBody: string | Uint8Array;
    readonly toleranceSeconds?: number;
    readonly nowSeconds?: number;
  } & (
    | { readonly headers: WebhookHeaders }
    | { readonly signature: string | null | undefined; readonly timestamp?: string | null }
  ),
): WebhookVerification {
  if ("headers" in input) return verifyStandard({ ...input, headers: input.headers });
  const { signature } = input;
  if (signature === null || signature === undefined || signature === "") {
    return { ok: false, reason: "missing_signature" };
  }
  if (input.timestamp !== undefined && input.timestamp !== null) {
    return { ok: false, reason: "unsigned_timestamp" };
  }
  const expected = signWebhookBody(input.secret, input.rawBody);
  if (!equalText(signature.trim().toLowerCase(), expected))
    return { ok: false, reason: "signature_mismatch" };
  return { ok: true };
}

function verifyStandard(input: {
  readonly secret: string;
  readonly rawBody: string | Uint8Array;
  readonly headers: WebhookHeaders;
  readonly toleranceSeconds?: number;
  readonly nowSeconds?: number;
}): WebhookVerification {
  const id = header(input.headers, STANDARD_ID_HEADER);
  const timestamp = header(input.headers, STANDARD_TIMESTAMP_HEADER);
  const signatures = header(input.headers, STANDARD_SIGNATURE_HEADER);
  if (!id || !timestamp || !signatures) return { ok: false, reason: "missing_signature" };
  const expected = signWebhookV1(input.secret, { id, timestamp, body: input.rawBody });
  // Every entry is compared, so the time does not depend on which one matched.
  let matched = false;
  for (const entry of signatures.split(" ")) {
    if (entry.startsWith("v1,") && equalText(entry, expected)) matched = true;
  }
  if (!matched) return { ok: false, reason: "signature_mismatch" };
  const sent = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isInteger(sent) || Math.abs(now - sent) > tolerance)
    return { ok: false, reason: "stale_timestamp" };
  return { ok: true };
}
