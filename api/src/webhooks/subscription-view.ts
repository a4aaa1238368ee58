/** A subscription row as the API returns it (spec 2.7; the secret only at creation). */

import type { Tables } from "@cpay/ledger/schema";
import type { TWebhook } from "@cpay/sdk/api";

export type SubscriptionRow = Tables["webhookSubscriptions"]["$inferSelect"];
export type DeliveryRow = Tables["webhookDeliveries"]["$inferSelect"];

export function subscriptionView(row: SubscriptionRow): TWebhook {
  return {
    webhook_id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as TWebhook["events"],
    created_at: row.createdAt,
  };
}
