/**
 * The webhook event types of spec 6.1, as plain data: no zod, so the dashboard can import the list
 * (`@cpay/sdk/event-types`) without bundling the contracts. Each type's payload shape is the zod
 * contract in `events.ts`, built from this same list.
 */
export const WEBHOOK_EVENT_TYPES = [
  "transfer.initiated",
  "transfer.confirmed",
  "transfer.failed",
  "agent.transaction.pending_approval",
  "agent.transaction.approved",
  "agent.transaction.rejected",
  "agent.policy.updated",
] as const;

export type TWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
