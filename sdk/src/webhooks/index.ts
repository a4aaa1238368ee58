/**
 * `@cpay/sdk/webhooks`: what a receiver of the service's webhooks needs — the header names and a
 * constant-time signature check with a timestamp tolerance (spec 6.3).
 */
export {
  DEFAULT_TOLERANCE_SECONDS,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signWebhookBody,
  TIMESTAMP_HEADER,
  verifyWebhook,
  type WebhookVerification,
} from "./signature";
