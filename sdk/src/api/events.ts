/**
 * The webhook events (spec 6): one contract for the service that writes them and the receivers that
 * read them. Each type's body is the envelope (`event`, `event_id`, `timestamp`) around its payload,
 * in the key order the service has always sent (the signature covers the exact bytes).
 *
 * No shape has an amount field (spec 6.2: "the amount is always omitted"), confidential or not, and
 * the service writes only what `buildWebhookEvent` returns, which refuses any field outside the
 * shape: a plaintext amount cannot reach a body, by construction.
 */
import { z } from "zod";
import { ZTimestamp, zId } from "./common";
import { type TWebhookEventType, WEBHOOK_EVENT_TYPES } from "./event-types";
import { ZTransferDirection } from "./transfers";

export const ZWebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);

/** Spec 6.2's fields: who, which way, with whom, in what, whether confidential, which transaction. */
const movementFields = {
  account: z.string().meta({ description: "Handle of the account or agent concerned" }),
  direction: ZTransferDirection,
  counterparty: z.string().meta({ description: "The other party" }),
  asset: z.string().meta({ description: "For example `USDG`" }),
  confidential: z.boolean(),
  tx_signature: z.string().nullable().meta({ description: "Base58 Solana signature; null when none landed" }),
};

/** `transfer.*`: the sender's (`sent`) or, once confirmed, a recipient's (`received`) view. */
const transferFields = { ...movementFields, transfer_id: zId("tr") };

/** `agent.transaction.*`: the agent's held transfer, delivered to its owner. */
const holdFields = {
  ...movementFields,
  direction: z.literal("sent"),
  transaction_id: zId("tx"),
  transfer_id: zId("tr"),
};

/** `agent.policy.updated`: which agent's policy, changed by which transaction. */
const policyFields = {
  account: movementFields.account,
  agent_account_id: z.string(),
  policy_id: z.string(),
  tx_signature: z.string(),
};

/** One event type's body: the envelope around `fields`, `timestamp` last. */
function eventOf<const T extends TWebhookEventType, const F extends z.ZodRawShape>(type: T, fields: F) {
  return z.object({ event: z.literal(type), event_id: zId("evt"), ...fields, timestamp: ZTimestamp });
}

/** Every event body the service sends, told apart by `event`. */
export const ZWebhookEvent = z.discriminatedUnion("event", [
  eventOf("transfer.initiated", transferFields),
  eventOf("transfer.confirmed", transferFields),
  eventOf("transfer.failed", transferFields),
  eventOf("agent.transaction.pending_approval", holdFields),
  eventOf("agent.transaction.approved", holdFields),
  eventOf("agent.transaction.rejected", holdFields),
  eventOf("agent.policy.updated", policyFields),
]);
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;
export type TWebhookEventOf<T extends TWebhookEventType> = Extract<TWebhookEvent, { event: T }>;
/** What the writer of a `T` event supplies: its body without the envelope (per type, for a union). */
export type TWebhookEventPayload<T extends TWebhookEventType> = T extends TWebhookEventType
  ? Omit<TWebhookEventOf<T>, "event" | "event_id" | "timestamp">
  : never;

/**
 * The body of event `eventId` of `type`, stamped `timestamp`, parsed by the contract: its keys in
 * the contract's order. Throws when the payload does not match, or carries a field the contract
 * does not have (an amount, say), rather than drop it silently.
 */
export function buildWebhookEvent<T extends TWebhookEventType>(
  type: T,
  eventId: string,
  payload: TWebhookEventPayload<T>,
  timestamp: string,
): TWebhookEventOf<T> {
  const candidate: Record<string, unknown> = { event: type, event_id: eventId, ...payload, timestamp };
  const event = ZWebhookEvent.parse(candidate);
  const outside = Object.keys(candidate).filter((key) => !Object.hasOwn(event, key));
  if (outside.length > 0) throw new TypeError(`${type} has no field ${outside.join(", ")}`);
  return event as TWebhookEventOf<T>;
}
