/**
 * Writes one fact to the event outbox (spec 6), inside the caller's transaction so the fact and the
 * record it describes commit together. `fact_key` is unique: the API (at submission) and the
 * indexer (from the program's logs) may both observe a fact and only the first insert
 * counts, so each event fires once. The body is the webhook contract's (`@cpay/sdk/api`
 * `ZWebhookEvent`: spec 6.2 plus `event_id` and the resource id, never an amount), built by
 * `buildWebhookEvent`, so a payload that does not parse is never written. The facts' builders are
 * beside this file (one per event type). Webhook deliveries are not written here: the event is the
 * outbox entry, and the webhook worker fans it out to subscriptions in a step of its own.
 */
import { buildWebhookEvent, type TWebhookEventPayload, type TWebhookEventType } from "@cpay/sdk/api";
import type { Database, Db } from "../db/database";
import { newId } from "../ids";

export type EventType = TWebhookEventType;

/**
 * What recording a fact needs from the service: the database and the clock events are stamped by.
 * The API passes its whole context; the indexer (another process) has only these.
 */
export interface OutboxContext {
  readonly db: Database;
  /** Milliseconds since the epoch (wall time in production; tests pass a controllable one). */
  readonly clock: () => number;
}

export interface EventFact<T extends EventType = EventType> {
  readonly type: T;
  /** The account the event is delivered to (the owner for agent events). */
  readonly accountId: string;
  /** `tr_...`, `tx_...` or `policy_...`. */
  readonly resourceId: string;
  /** Unique per fact, e.g. `transfer.confirmed:tr_...` or `agent.policy.updated:<signature>`. */
  readonly factKey: string;
  /** The contract's payload of `type`; `event`, `event_id` and `timestamp` are added here. */
  readonly payload: TWebhookEventPayload<T>;
}

/** Records the fact unless it is already recorded; returns the event id, or null if it was. */
export async function recordEvent<T extends EventType>(
  service: OutboxContext,
  tx: Db,
  fact: EventFact<T>,
): Promise<string | null> {
  const id = newId("evt");
  // The service clock (wall time in production) also schedules the retries measured from it.
  const createdAt = new Date(service.clock()).toISOString();
  const inserted = await tx
    .insert(service.db.tables.events)
    .values({
      id,
      type: fact.type,
      accountId: fact.accountId,
      resourceId: fact.resourceId,
      factKey: fact.factKey,
      payload: JSON.stringify(buildWebhookEvent(fact.type, id, fact.payload, createdAt)),
      createdAt,
      // Deliveries are the webhook worker's to create (webhooks/fan-out.ts), outside this
      // transaction: however many subscriptions there are, recording a fact writes one row here.
      fanOutPending: true,
    })
    .onConflictDoNothing()
    .returning({ id: service.db.tables.events.id });
  return inserted.length === 0 ? null : id;
}
