/**
 * The delivery worker (spec 6.3, 6.4; DESIGN section 8), a background job: claims due deliveries,
 * POSTs each event's payload signed with its subscription's secret, and records the attempt.
 * - Claim: `queued` (or `delivering` whose lease ran out: a worker died) and due, marked
 *   `delivering` with a 60 s lease, in one transaction — `FOR UPDATE SKIP LOCKED` on PostgreSQL,
 *   so any number of workers share the queue and never take the same delivery; SQLite runs one.
 * - Outcome: a 2xx is `delivered`; anything else is retried at `nextAttemptAt` (exponential
 *   backoff with jitter) until 24 h after the event, then `failed`. Recorded only if the delivery
 *   is still `delivering`, so a deletion in between (cancelled) wins.
 * - Pacing: up to CONCURRENCY attempts in flight per process, refilled as they finish, so one slow
 *   receiver holds up one slot, not a batch; the worker claims again at once while the queue has
 *   due deliveries and polls every POLL_MS only when it is empty.
 * Times come from `service.clock`, so tests drive the 24 h without waiting.
 */
import { signWebhookBody } from "@cpay/sdk/webhooks";
import { and, asc, eq, inArray, lte, notInArray } from "drizzle-orm";
import { registerBackgroundJob } from "../background";
import type { Db } from "../db/database";
import type { EventRow } from "../db/rows";
import type { ServiceContext } from "../service-context";
import { webhookSecretOf } from "../vault/account-secrets";
import { postWebhook } from "./post-webhook";
import { nextAttemptAt } from "./retry-schedule";
import type { DeliveryRow, SubscriptionRow } from "./subscription-view";
import { checkWebhookUrl } from "./url-policy";

const LEASE_MS = 60_000;
const BATCH = 10;
const CONCURRENCY = 32;
const POLL_MS = 100;

/** Claims one batch of what is due now and sends it; resolves to the number of attempts made. */
export async function deliverDue(service: ServiceContext): Promise<number> {
  const claimed = await claimDue(service, BATCH);
  const record = recordAlone(service);
  await Promise.all(claimed.map((delivery) => attempt(service, delivery, record)));
  return claimed.length;
}

/** A claimed delivery with what sending it needs, read in the claiming transaction. */
interface ClaimedDelivery {
  readonly delivery: DeliveryRow;
  readonly subscription: SubscriptionRow | undefined;
  readonly event: EventRow | undefined;
}

async function claimDue(
  service: ServiceContext,
  limit: number,
  inFlight: ReadonlySet<string> = new Set(),
): Promise<ClaimedDelivery[]> {
  const { webhookDeliveries, webhookSubscriptions, events } = service.db.tables;
  const now = new Date(service.clock()).toISOString();
  return service.db.transaction(async (tx) => {
    const due = tx
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          inArray(webhookDeliveries.state, ["queued", "delivering"]),
          lte(webhookDeliveries.nextAttemptAt, now),
          // A lease that ran out while this process still sends it (a stalled process, a clock
          // moved forward) is not another worker's to take: never two attempts of one delivery.
          ...(inFlight.size === 0 ? [] : [notInArray(webhookDeliveries.id, [...inFlight])]),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit);
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
    const subscriptionRows = await tx
      .select()
      .from(webhookSubscriptions)
      .where(inArray(webhookSubscriptions.id, [...new Set(rows.map((row) => row.subscriptionId))]));
    const eventRows = await tx
      .select()
      .from(events)
      .where(inArray(events.id, [...new Set(rows.map((row) => row.eventId))]));
    return rows.map((row) => ({
      // As the claim left it: `updated_at` identifies this claim to `finish`.
      delivery: { ...row, state: "delivering", updatedAt: now },
      subscription: subscriptionRows.find((subscription) => subscription.id === row.subscriptionId),
      event: eventRows.find((event) => event.id === row.eventId),
    }));
  });
}

/** Writes an attempt's result (in a transaction of its own, or batched with others). */
type RecordOutcome = (delivery: DeliveryRow, values: FinishValues) => Promise<void>;

async function attempt(
  service: ServiceContext,
  claimed: ClaimedDelivery,
  record: RecordOutcome,
): Promise<void> {
  const { delivery, subscription, event } = claimed;
  if (subscription === undefined || event === undefined || subscription.deletedAt !== null) {
    await record(delivery, { state: "cancelled" });
    return;
  }
  const check = await checkWebhookUrl(subscription.url, { allowLocal: service.config.webhooksAllowLocal });
  let outcome: { statusCode: number | null; error: string | null };
  if (!check.ok) {
    outcome = { statusCode: null, error: check.message };
  } else {
    const secret = await webhookSecretOf(service, subscription.id);
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
  await record(delivery, {
    state: delivered ? "delivered" : next === null ? "failed" : "queued",
    attempts,
    history: JSON.stringify(history),
    lastStatusCode: outcome.statusCode,
    nextAttemptAt: next === null ? null : new Date(next).toISOString(),
  });
}

type FinishValues = Partial<
  Pick<DeliveryRow, "state" | "attempts" | "history" | "lastStatusCode" | "nextAttemptAt">
>;

/** Each outcome in its own transaction. */
function recordAlone(service: ServiceContext): RecordOutcome {
  return (delivery, values) => service.db.transaction((tx) => finish(service, tx, delivery, values));
}

/**
 * Outcomes written together: those that finish while a write is under way go in the next one, so
 * a busy worker writes one transaction per batch of finished attempts instead of one per attempt.
 */
function recordBatched(service: ServiceContext): RecordOutcome {
  let queue: { delivery: DeliveryRow; values: FinishValues; done: (error?: unknown) => void }[] = [];
  let writing = false;
  const write = async () => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      const error = await service.db
        .transaction(async (tx) => {
          for (const item of batch) await finish(service, tx, item.delivery, item.values);
        })
        .then(
          () => undefined,
          (failure: unknown) => failure ?? new Error("recording webhook outcomes failed"),
        );
      for (const item of batch) item.done(error);
    }
    writing = false;
  };
  return (delivery, values) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ delivery, values, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!writing) {
        writing = true;
        void write();
      }
    });
}

/** Writes an attempt's result, unless the delivery left `delivering` meanwhile (deleted). */
async function finish(
  service: ServiceContext,
  tx: Db,
  delivery: DeliveryRow,
  values: FinishValues,
): Promise<void> {
  const { webhookDeliveries } = service.db.tables;
  await tx
    .update(webhookDeliveries)
    .set({ nextAttemptAt: null, ...values, updatedAt: new Date(service.clock()).toISOString() })
    .where(
      and(
        eq(webhookDeliveries.id, delivery.id),
        eq(webhookDeliveries.state, "delivering"),
        // Only by the claim that made this attempt (its `updated_at`): a worker that took the lease
        // after it ran out has claimed it anew, and its outcome is the one to keep.
        eq(webhookDeliveries.updatedAt, delivery.updatedAt),
      ),
    );
}

registerBackgroundJob((service) => {
  const record = recordBatched(service);
  const inFlight = new Set<Promise<void>>();
  const sendingIds = new Set<string>();
  let stopped = false;
  let pumping: Promise<void> | null = null;
  const failed = (error: unknown) =>
    service.logger.warn({ err: { name: (error as Error)?.name } }, "webhook delivery pass failed; retrying");
  /** Claims while there is room and something is due; returns when the queue is empty or the pool full. */
  const pump = async () => {
    while (!stopped && inFlight.size < CONCURRENCY) {
      const claimed = await claimDue(service, CONCURRENCY - inFlight.size, sendingIds);
      for (const delivery of claimed) {
        sendingIds.add(delivery.delivery.id);
        const sending: Promise<void> = attempt(service, delivery, record)
          .catch(failed)
          .finally(() => {
            inFlight.delete(sending);
            sendingIds.delete(delivery.delivery.id);
            // Refill once half the pool is free: one claim transaction per several finished attempts.
            if (inFlight.size <= CONCURRENCY / 2) wake();
          });
        inFlight.add(sending);
      }
      if (claimed.length === 0) return;
    }
  };
  const wake = () => {
    if (stopped || pumping !== null) return;
    pumping = pump()
      .catch(failed)
      .finally(() => {
        pumping = null;
      });
  };
  const timer = setInterval(wake, POLL_MS);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await pumping;
    await Promise.all([...inFlight]);
  };
});
