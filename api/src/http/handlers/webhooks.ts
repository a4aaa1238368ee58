/** Webhook subscriptions, replay and the delivery log (spec 4.12-4.16). */

import { listDeliveries, replayEvent } from "../../webhooks/delivery-log";
import {
  createSubscription,
  deleteSubscription,
  findSubscription,
  listSubscriptions,
  rotateSubscriptionSecret,
} from "../../webhooks/manage-subscriptions";
import type { Handlers } from "../mount-routes";

export const webhookHandlers: Pick<
  Handlers,
  | "createWebhook"
  | "listWebhooks"
  | "deleteWebhook"
  | "rotateWebhookSecret"
  | "replayEvent"
  | "listDeliveries"
> = {
  createWebhook: ({ service, caller, body, idempotency }) =>
    createSubscription(
      service,
      caller.account.id,
      body,
      idempotency ? (id) => idempotency.bindResource(id) : null,
    ),
  listWebhooks: ({ service, caller }) => listSubscriptions(service, caller.account.id),
  deleteWebhook: ({ service, caller, params }) =>
    deleteSubscription(service, caller.account.id, params.webhook_id),
  rotateWebhookSecret: ({ service, caller, params }) =>
    rotateSubscriptionSecret(service, caller.account.id, params.webhook_id),
  replayEvent: async ({ service, caller, params }) =>
    replayEvent(
      service,
      await findSubscription(service, caller.account.id, params.webhook_id),
      params.event_id,
    ),
  listDeliveries: async ({ service, caller, params, query }) =>
    listDeliveries(service, await findSubscription(service, caller.account.id, params.webhook_id), query),
};
