/**
 * A subscription's delivery log (spec 4.16) and replay (spec 4.15). Replay queues an immediate
 * attempt of one event for one subscription — an event of the subscription's account or of one of
 * its agents — whatever the delivery's state was (delivered, failed, or never made because the
 * subscription came later); the worker then sends it as any other attempt.
 */

import { newId } from "@cpay/ledger/ids";
import type { TDelivery } from "@cpay/sdk/api";
import { and, desc, eq, sql } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import type { DeliveryRow, SubscriptionRow } from "./subscription-view";

/**
 * What an attempt's `error` may say: the worker records only these (deliver-webhooks.ts). Rows
 * written before carry a socket's or resolver's message, which can name internal addresses and
 * ports, so anything else is shown as `connection_failed`.
 */
const ATTEMPT_ERRORS = new Set([
  "timeout",
  "response_too_large",
  "connection_failed",
  "malformed_url",
  "not_https",
  "credentials_in_url",
  "unresolvable_host",
  "non_public_address",
]);

type Attempt = TDelivery["history"][number];

export function deliveryView(row: DeliveryRow, eventType: string): TDelivery {
  return {
    delivery_id: row.id,
    event_id: row.eventId,
    event: eventType as TDelivery["event"],
    state: row.state as TDelivery["state"],
    attempts: row.attempts,
    retry_count: Math.max(0, row.attempts - 1),
    last_status_code: row.lastStatusCode,
    next_attempt_at: row.state === "queued" ? row.nextAttemptAt : null,
    history: (JSON.parse(row.history) as Attempt[]).map((attempt) => ({
      ...attempt,
      error:
        attempt.error === null || ATTEMPT_ERRORS.has(attempt.error) ? attempt.error : "connection_failed",
    })),
    created_at: row.createdAt,
  };
}

export async function listDeliveries(
  service: ServiceContext,
  subscription: SubscriptionRow,
  page: { readonly limit: number; readonly offset: number },
) {
  const { webhookDeliveries, events } = service.db.tables;
  const where = eq(webhookDeliveries.subscriptionId, subscription.id);
  const [rows, [count]] = await service.db.read(async (db) => [
    await db
      .select({ delivery: webhookDeliveries, type: events.type })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(page.limit)
      .offset(page.offset),
    await db.select({ n: sql<number>`count(*)` }).from(webhookDeliveries).where(where),
  ]);
  const total = Number(count?.n ?? 0);
  return {
    deliveries: rows.map((row) => deliveryView(row.delivery, row.type)),
    total,
    limit: page.limit,
    offset: page.offset,
    has_more: page.offset + rows.length < total,
  };
}

export async function replayEvent(service: ServiceContext, subscription: SubscriptionRow, eventId: string) {
  const { events, accounts, webhookDeliveries } = service.db.tables;
  const [event] = await service.db.read((db) => db.select().from(events).where(eq(events.id, eventId)));
  const [eventAccount] =
    event === undefined
      ? []
      : await service.db.read((db) =>
          db
            .select({ owner: accounts.ownerAccountId })
            .from(accounts)
            .where(eq(accounts.id, event.accountId)),
        );
  const visible =
    event !== undefined &&
    (event.accountId === subscription.accountId || eventAccount?.owner === subscription.accountId);
  if (!visible)
    throw new ApiError("event_not_found", `no event ${eventId} for this subscription`, "event_id");
  const now = new Date(service.clock()).toISOString();
  const row = await service.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(webhookDeliveries)
      .where(
        and(eq(webhookDeliveries.subscriptionId, subscription.id), eq(webhookDeliveries.eventId, event.id)),
      );
    if (existing !== undefined) {
      const [updated] = await tx
        .update(webhookDeliveries)
        .set({ state: "queued", nextAttemptAt: now, updatedAt: now })
        .where(eq(webhookDeliveries.id, existing.id))
        .returning();
      return updated as DeliveryRow;
    }
    const [inserted] = await tx
      .insert(webhookDeliveries)
      .values({
        id: newId("dlv"),
        subscriptionId: subscription.id,
        eventId: event.id,
        state: "queued",
        attempts: 0,
        nextAttemptAt: now,
        history: "[]",
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return inserted as DeliveryRow;
  });
  return deliveryView(row, event.type);
}
