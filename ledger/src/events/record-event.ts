/**
 * Writes one fact to the event outbox (spec 6), inside the caller's transaction so the fact and the
 * record it describes commit together. `fact_key` is unique: the API (at submission) and the
 * indexer (from the program's logs) may both observe a fact and only the first insert
 * counts, so each event fires once. Payloads follow spec 6.2 plus `event_id` and the resource id;
 * they never carry an amount. Webhook deliveries are not written here: the event is the outbox
 * entry, and the webhook worker fans it out to subscriptions in a step of its own.
 */
import type { Database, Db } from "../db/database";
import { newId } from "../ids";

export type EventType =
  | "transfer.initiated"
  | "transfer.confirmed"
  | "transfer.failed"
  | "agent.transaction.pending_approval"
  | "agent.transaction.approved"
  | "agent.transaction.rejected"
  | "agent.policy.updated";

/**
 * What recording a fact needs from the service: the database and the clock events are stamped by.
 * The API passes its whole context; the indexer (another process) has only these.
 */
export interface OutboxContext {
  readonly db: Database;
  /** Milliseconds since the epoch (wall time in production; tests pass a controllable one). */
  readonly clock: () => number;
}

export interface EventFact {
  readonly type: EventType;
  /** The account the event is delivered to (the owner for agent events). */
  readonly accountId: string;
  /** `tr_...`, `tx_...` or `policy_...`. */
  readonly resourceId: string;
  /** Unique per fact, e.g. `transfer.confirmed:tr_...` or `agent.policy.updated:<signature>`. */
  readonly factKey: string;
  /** Spec 6.2 fields (no amount); `event`, `event_id` and `timestamp` are added here. */
  readonly payload: Readonly<Record<string, unknown>>;
}

/** Records the fact unless it is already recorded; returns the event id, or null if it was. */
export async function recordEvent(service: OutboxContext, tx: Db, fact: EventFact): Promise<string | null> {
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
      payload: JSON.stringify({ event: fact.type, event_id: id, ...fact.payload, timestamp: createdAt }),
      createdAt,
      // Deliveries are the webhook worker's to create (webhooks/fan-out.ts), outside this
      // transaction: however many subscriptions there are, recording a fact writes one row here.
      fanOutPending: true,
    })
    .onConflictDoNothing()
    .returning({ id: service.db.tables.events.id });
  return inserted.length === 0 ? null : id;
}
