/** Webhook subscriptions and their delivery log (spec 2.7, 2.8, 4.12-4.16, 6). */
import { z } from "zod";
import { ZPage, ZPaging, ZSecretAlreadyDelivered, ZTimestamp, zId } from "./common";
import { WEBHOOK_EVENT_TYPES } from "./event-types";
import { ZWebhookEventType } from "./events";

export const ZCreateWebhookRequest = z
  .strictObject({
    url: z.string().min(1).max(2048).meta({ description: "HTTPS endpoint that accepts POST" }),
    events: z.array(ZWebhookEventType).min(1).max(WEBHOOK_EVENT_TYPES.length),
  })
  .meta({ id: "CreateWebhookRequest" });
export type TCreateWebhookRequest = z.infer<typeof ZCreateWebhookRequest>;

const webhookFields = {
  webhook_id: zId("wh"),
  url: z.string(),
  events: z.array(ZWebhookEventType),
  created_at: ZTimestamp,
};

/**
 * A signing secret: `whsec_` and the base64 of 32 random bytes (standard alphabet with padding;
 * subscriptions made before that used the URL-safe alphabet, which decodes to the key the same way).
 */
const ZWebhookSecret = z.string().regex(/^whsec_(?:[A-Za-z0-9+/]{43}=|[A-Za-z0-9_-]{43})$/);

/** A secret shown once: null on an Idempotency-Key replay, which says so. */
const ZSecretShownOnce = ZWebhookSecret.nullable().meta({
  description: "The signing secret, shown once: null on an Idempotency-Key replay",
});

/** The create response: the only time `secret` is shown (null on an Idempotency-Key replay). */
export const ZWebhookWithSecret = z
  .object({
    ...webhookFields,
    secret: ZSecretShownOnce,
    secret_already_delivered: ZSecretAlreadyDelivered,
  })
  .meta({ id: "WebhookWithSecret" });

/** The rotate-secret response: the new secret, shown once, and when the old one stops signing. */
export const ZRotatedWebhookSecret = z
  .object({
    webhook_id: zId("wh"),
    secret: ZSecretShownOnce,
    secret_already_delivered: ZSecretAlreadyDelivered,
    previous_secret_expires_at: ZTimestamp.meta({
      description:
        "Until then deliveries are signed with both secrets (two `v1,` entries of `webhook-signature`)",
    }),
  })
  .meta({ id: "RotatedWebhookSecret" });

export const ZWebhook = z.object(webhookFields).meta({ id: "Webhook" });
export type TWebhook = z.infer<typeof ZWebhook>;
export const ZWebhookList = z.object({ webhooks: z.array(ZWebhook) }).meta({ id: "WebhookList" });
export const ZDeletedWebhook = z
  .object({ webhook_id: zId("wh"), deleted: z.literal(true), cancelled_deliveries: z.number().int() })
  .meta({ id: "DeletedWebhook" });

export const ZDeliveryState = z.enum(["queued", "delivering", "delivered", "failed", "cancelled"]);

export const ZDelivery = z
  .object({
    delivery_id: zId("dlv"),
    event_id: zId("evt"),
    event: ZWebhookEventType,
    state: ZDeliveryState,
    /** Attempts made so far; `retry_count` is attempts beyond the first. */
    attempts: z.number().int(),
    retry_count: z.number().int(),
    last_status_code: z.number().int().nullable(),
    next_attempt_at: ZTimestamp.nullable(),
    history: z.array(
      z.object({ at: ZTimestamp, status_code: z.number().int().nullable(), error: z.string().nullable() }),
    ),
    created_at: ZTimestamp,
  })
  .meta({ id: "Delivery" });

export type TDelivery = z.infer<typeof ZDelivery>;

export const ZDeliveryList = ZPage.extend({ deliveries: z.array(ZDelivery) }).meta({ id: "DeliveryList" });
export const ZDeliveryListQuery = ZPaging.strict();
