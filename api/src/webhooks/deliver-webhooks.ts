/**
 * The delivery worker (spec 6.3, 6.4; DESIGN section 8), a background job: claims due deliveries,
 * POSTs each event's payload signed with its subscription's secret, and records the attempt.
 * - Claim: `queued` (or `delivering` whose lease ran out: a worker died) and due, marked
 *   `delivering` with a 60 s lease, in one transaction — `FOR UPDATE SKIP LOCKED` on PostgreSQL,
 *   so any number of workers share the queue and never take the same delivery; SQLite runs one.
 * - Outcome: a 2xx is `delivered`; anything else is retried at `nextAttemptAt` (exponential
 *   backoff with jitter) until 24 h after the event, then `failed`. Recorded only if the delivery
 *   is still `delivering`, so a deletion in between (cancelled) wins.
 * Times come from `service.clock`, so tests drive the 24 h without waiting.
 */
import { signWebhookBody } from "@cpay/sdk/webhooks";
import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { registerBackgroundJob } from "../background";
import type { Db } from "../db/database";
import type { ServiceContext } from "../service-context";
import { loadSecret } from "../vault/account-secrets";
import { postWebhook } from "./post-webhook";
import { nextAttemptAt } from "./retry-schedule";
import type { DeliveryRow } from "./subscription-view";
import { checkWebhookUrl } from "./url-policy";

const LEASE_MS = 60_000;
const BATCH = 10;
const POLL_MS = 100;

/** Claims and sends what is due now; resolves to the number of attempts made. */
export async function deliverDue(service: ServiceContext): Promise<number> {
  const claimed = await claimDue(service);
  await Promise.all(claimed.map((delivery) => attempt(service, delivery)));
  return claimed.length;
}

async function claimDue(service: ServiceContext): Promise<DeliveryRow[]> {
  const { webhookDeliveries } = service.db.tables;
  const now = new Date(service.clock()).toISOString();
  return service.db.transaction(async (tx) => {
    const due = tx
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          inArray(webhookDeliveries.state, ["queued", "delivering"]),
          lte(webhookDeliveries.nextAttemptAt, now),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(BATCH);
    const rows =
      service.db.dialect === "postgres" ? await due.for("update", { skipLocked: true }) : await due;
    if (rows.length === 0) return [];
    const lease = new Date(service.clock() + LEASE_MS).toISOString();
    await tx
      .update(webhookDeliveries)
      .set({ state: "delivering", nextAttemptAt: lease, updatedAt: now })
      .where(
        inArray(
          webhookDeliveries.id,
          rows.map((row) => row.id),
        ),
      );
    return rows;
  });
}

async function attempt(service: ServiceContext, delivery: DeliveryRow): Promise<void> {
  const { webhookSubscriptions, events } = service.db.tables;
  const [subscription] = await service.db.read((db) =>
    db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, delivery.subscriptionId)),
  );
  const [event] = await service.db.read((db) =>
    db.select().from(events).where(eq(events.id, delivery.eventId)),
  );
  if (subscription === undefined || event === undefined || subscription.deletedAt !== null) {
    await service.db.transaction((tx) => finish(service, tx, delivery, { state: "cancelled" }));
    return;
  }
  const check = await checkWebhookUrl(subscription.url, { allowLocal: service.config.webhooksAllowLocal });
  let outcome: { statusCode: number | null; error: string | null };
  if (!check.ok) {
    outcome = { statusCode: null, error: check.message };
  } else {
    const secret = new TextDecoder().decode(await loadSecret(service, subscription.id, "webhook_secret"));
    const timestamp = String(Math.floor(service.clock() / 1000));
    outcome = await postWebhook({
      url: check.url,
      address: check.addresses[0] as string,
      body: event.payload,
      headers: {
        "x-service-signature": signWebhookBody(secret, event.payload),
        "x-service-event-id": event.id,
        "x-service-timestamp": timestamp,
        "user-agent": "cpay-webhooks/1",
      },
    });
  }
  const now = service.clock();
  const attempts = delivery.attempts + 1;
  const history = [
    ...(JSON.parse(delivery.history) as unknown[]),
    { at: new Date(now).toISOString(), status_code: outcome.statusCode, error: outcome.error },
  ];
  const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const next = delivered
    ? null
    : nextAttemptAt({ eventCreatedAt: Date.parse(event.createdAt), failedAttempt: attempts, now });
  await service.db.transaction((tx) =>
    finish(service, tx, delivery, {
      state: delivered ? "delivered" : next === null ? "failed" : "queued",
      attempts,
      history: JSON.stringify(history),
      lastStatusCode: outcome.statusCode,
      nextAttemptAt: next === null ? null : new Date(next).toISOString(),
    }),
  );
}

/** Writes an attempt's result, unless the delivery left `delivering` meanwhile (deleted). */
async function finish(
  service: ServiceContext,
  tx: Db,
  delivery: DeliveryRow,
  values: Partial<Pick<DeliveryRow, "state" | "attempts" | "history" | "lastStatusCode" | "nextAttemptAt">>,
): Promise<void> {
  const { webhookDeliveries } = service.db.tables;
  await tx
    .update(webhookDeliveries)
    .set({ nextAttemptAt: null, ...values, updatedAt: new Date(service.clock()).toISOString() })
    .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.state, "delivering")));
}

registerBackgroundJob((service) => {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    running = deliverDue(service)
      .catch((error: unknown) =>
        service.logger.warn(
          { err: { name: (error as Error)?.name } },
          "webhook delivery pass failed; retrying",
        ),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, POLL_MS);
      });
  };
  let timer = setTimeout(tick, POLL_MS);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
});
