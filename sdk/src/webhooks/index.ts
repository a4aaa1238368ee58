/**
 * `@cpay/sdk/webhooks`: what a receiver of the service's webhooks needs — the header names and a
 * constant-time check of the Standard Webhooks signature with its signed timestamp, or of the
 * spec's body-only `X-Service-Signature` (spec 6.3), and the check that also returns the parsed event.
 */
export {
  DEFAULT_TOLERANCE_SECONDS,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  signWebhookBody,
  signWebhookV1,
  TIMESTAMP_HEADER,
  verifyWebhook,
  type WebhookHeaders,
  type WebhookVerification,
} from "./signature";
export { verifyWebhookEvent, type WebhookEventVerification } from "./verify-event";
