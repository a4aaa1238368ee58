/**
 * The outbox step of the webhook worker: turns recorded events (`fan_out_pending`) into one queued
 * delivery per live subscription that wants the event's type, of the account concerned or — for
 * an agent — of its owner (spec 6: "the account or any agent beneath it"). It runs in its own
 * short transaction, never in the one that recorded the event, so an account's subscriptions
 * cannot make the indexer's checkpoint or a transfer transition a large write. A subscription made
 * after the event does not receive it (replay can). On PostgreSQL, `SKIP LOCKED` lets several
 * workers fan out at once without taking the same events; the unique (subscription, event) index
 * makes a repeated step harmless.
 */

import { newId } from "@cpay/ledger/ids";
import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";

/** Events fanned out per transaction. */
const FAN_OUT_BATCH = 100;

/** Fans out one batch of pending events; resolves to how many events it handled. */
export async function fanOutEvents(service: Pick<ServiceContext, "db">): Promise<number> {
  const { events, accounts, webhookSubscriptions, webhookDeliveries } = service.db.tables;
  return service.db.transaction(async (tx) => {
    const pending = tx
      .select({ id: events.id, type: events.type, accountId: events.accountId, createdAt: events.createdAt })
      .from(events)
      .where(eq(events.fanOutPending, true))
      .orderBy(asc(events.createdAt))
      .limit(FAN_OUT_BATCH);
    const rows =
      service.db.dialect === "postgres" ? await pending.for("update", { skipLocked: true }) : await pending;
    if (rows.length === 0) return 0;
    for (const event of rows) {
      const [account] = await tx
        .select({ ownerAccountId: accounts.ownerAccountId })
        .from(accounts)
        .where(eq(accounts.id, event.accountId));
      const audience = [event.accountId, ...(account?.ownerAccountId ? [account.ownerAccountId] : [])];
      const subscriptions = await tx
        .select()
        .from(webhookSubscriptions)
        .where(
          and(
            inArray(webhookSubscriptions.accountId, audience),
            isNull(webhookSubscriptions.deletedAt),
            lte(webhookSubscriptions.createdAt, event.createdAt),
          ),
        );
      const wanted = subscriptions.filter((subscription) =>
        (JSON.parse(subscription.events) as string[]).includes(event.type),
      );
      if (wanted.length > 0) {
        await tx
          .insert(webhookDeliveries)
          .values(
            wanted.map((subscription) => ({
              id: newId("dlv"),
              subscriptionId: subscription.id,
              eventId: event.id,
              state: "queued",
              attempts: 0,
              nextAttemptAt: event.createdAt,
              history: "[]",
              createdAt: event.createdAt,
              updatedAt: event.createdAt,
            })),
          )
          .onConflictDoNothing();
      }
    }
    await tx
      .update(events)
      .set({ fanOutPending: false })
      .where(
        inArray(
          events.id,
          rows.map((row) => row.id),
        ),
      );
    return rows.length;
  });
}
