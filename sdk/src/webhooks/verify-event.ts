/**
 * A delivery checked and read in one step: `verifyWebhook` first (nothing is parsed before its
 * signature holds), then the body parsed by the webhook contract (`@cpay/sdk/api` `ZWebhookEvent`,
 * the one the service builds every body with), so a receiver acts on a typed event. A body the
 * contract does not describe — an event type newer than this SDK, say — is `invalid_event`.
 */
import { type TWebhookEvent, ZWebhookEvent } from "../api/events";
import { verifyWebhook, type WebhookVerification } from "./signature";

export type WebhookEventVerification =
  | { readonly ok: true; readonly event: TWebhookEvent }
  | {
      readonly ok: false;
      readonly reason: Extract<WebhookVerification, { ok: false }>["reason"] | "invalid_event";
    };

/** `verifyWebhook(input)`, then the verified body as its event; never throws for bad input. */
export function verifyWebhookEvent(input: Parameters<typeof verifyWebhook>[0]): WebhookEventVerification {
  const verdict = verifyWebhook(input);
  if (!verdict.ok) return verdict;
  const { rawBody } = input;
  let body: unknown;
  try {
    body = JSON.parse(typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody));
  } catch {
    return { ok: false, reason: "invalid_event" };
  }
  const parsed = ZWebhookEvent.safeParse(body);
  return parsed.success ? { ok: true, event: parsed.data } : { ok: false, reason: "invalid_event" };
}
