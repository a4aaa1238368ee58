/**
 * The delivery worker (spec 6.3, 6.4; DESIGN section 8), a background job: fans recorded events
 * out into deliveries (fan-out.ts), claims due deliveries, POSTs each event's payload signed with
 * its subscription's secret (signature headers below), and records the attempt.
 * - Claim: `queued` (or `delivering` whose lease ran out: a worker died) and due, marked
 *   `delivering` with a 60 s lease, in one transaction — `FOR UPDATE SKIP LOCKED` on PostgreSQL,
 *   so any number of workers share the queue and never take the same delivery; SQLite runs one.
 * - Outcome: a 2xx is `delivered`; anything else is retried at `nextAttemptAt` (exponential
 *   backoff with jitter) until 24 h after the event, then `failed`. Recorded only if the delivery
 *   is still `delivering`, so a deletion in between (cancelled) wins.
 * - Pacing: up to CONCURRENCY attempts in flight per process, refilled as they finish, so one slow
 *   receiver holds up one slot, not a batch; the worker claims again at once while the queue has
 *   due deliveries and polls every POLL_MS only when it is empty.
 * - Fair share: one account's attempts hold at most `WEBHOOK_ACCOUNT_SLOTS` of those slots (the
 *   claim skips accounts at their share), and every attempt ends by `WEBHOOK_ATTEMPT_DEADLINE_MS`
 *   (post-webhook.ts), so receivers that hang cannot keep other accounts' deliveries waiting.
 * - Signatures: `X-Service-Signature` (spec 6.3: hex HMAC of the body under the secret) with
 *   `X-Service-Event-Id` and `X-Service-Timestamp`, and the Standard Webhooks headers
 *   `webhook-id` (the event id), `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC
 *   of `id.timestamp.body`; a second entry under the previous secret during a rotation's grace).
 *   Only the latter authenticates the timestamp.
 * Times come from `service.clock`, so tests drive the 24 h without waiting.
 */

import type { EventRow } from "@cpay/ledger";
import type { Db } from "@cpay/ledger/database";
import { signWebhookBody, signWebhookV1 } from "@cpay/sdk/webhooks";
import { and, asc, eq, inArray, lte, notInArray } from "drizzle-orm";
import { registerBackgroundJob } from "../coordination/background-jobs";
import type { ServiceContext } from "../core/service-context";
import { webhookSecretOf } from "../vault/account-secrets";
import { fanOutEvents } from "./fan-out";
import { type AttemptOutcome, postWebhook } from "./post-webhook";
import { nextAttemptAt } from "./retry-schedule";
import type { DeliveryRow, SubscriptionRow } from "./subscription-view";
import { checkWebhookUrl } from "./url-policy";

const LEASE_MS = 60_000;
const BATCH = 10;
const CONCURRENCY = 32;
const POLL_MS = 100;

/**
 * Fans out what was recorded, then claims one batch of what is due now and sends it; resolves to
 * the number of attempts made.
 */
export async function deliverDue(service: ServiceContext): Promise<number> {
  while ((await fanOutEvents(service)) > 0) {}
  const claimed = await claimDue(service, BATCH, new Map());
  const record = recordAlone(service);
  await Promise.all(claimed.map((delivery) => attempt(service, delivery, record)));
  return claimed.length;
}

/** A claimed delivery with what sending it needs, read in the claiming transaction. */
interface ClaimedDelivery {
  readonly delivery: DeliveryRow;
  /** The subscription's account, whose share of the slots this attempt uses. */
  readonly accountId: string;
  readonly subscription: SubscriptionRow | undefined;
  readonly event: EventRow | undefined;
}

/**
 * Claims up to `limit` due deliveries, at most `accountSlots` per account counting the attempts
 * this process already has in flight (`sending`: delivery id -> account id). Accounts at their
 * share are left out of the query itself, so a long queue of one account's deliveries cannot
 * hide another's; the candidates read are then taken oldest first within each account's room.
 */
async function claimDue(
  service: ServiceContext,
  limit: number,
  sending: ReadonlyMap<string, string>,
): Promise<ClaimedDelivery[]> {
  const { webhookDeliveries, webhookSubscriptions, events } = service.db.tables;
  const now = new Date(service.clock()).toISOString();
  const share = service.config.webhooks.accountSlots;
  const inUse = new Map<string, number>();
  for (const accountId of sending.values()) inUse.set(accountId, (inUse.get(accountId) ?? 0) + 1);
  const full = [...inUse].filter(([, n]) => n >= share).map(([accountId]) => accountId);
  return service.db.transaction(async (tx) => {
    const due = tx
      .select({ delivery: webhookDeliveries, accountId: webhookSubscriptions.accountId })
      .from(webhookDeliveries)
      .innerJoin(webhookSubscriptions, eq(webhookSubscriptions.id, webhookDeliveries.subscriptionId))
      .where(
        and(
          inArray(webhookDeliveries.state, ["queued", "delivering"]),
          lte(webhookDeliveries.nextAttemptAt, now),
          // A lease that ran out while this process still sends it (a stalled process, a clock
          // moved forward) is not another worker's to take: never two attempts of one delivery.
          ...(sending.size === 0 ? [] : [notInArray(webhookDeliveries.id, [...sending.keys()])]),
          ...(full.length === 0 ? [] : [notInArray(webhookSubscriptions.accountId, full)]),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit * 4);
    const candidates =
      service.db.dialect === "postgres"
        ? await due.for("update", { of: webhookDeliveries, skipLocked: true })
        : await due;
    const rows: { delivery: DeliveryRow; accountId: string }[] = [];
    for (const candidate of candidates) {
      if (rows.length >= limit) break;
      const used = inUse.get(candidate.accountId) ?? 0;
      if (used >= share) continue;
      inUse.set(candidate.accountId, used + 1);
      rows.push(candidate);
    }
    if (rows.length === 0) return [];
    const lease = new Date(service.clock() + LEASE_MS).toISOString();
    await tx
      .update(webhookDeliveries)
      .set({ state: "delivering", nextAttemptAt: lease, updatedAt: now })
      .where(
        inArray(
          webhookDeliveries.id,
          rows.map((row) => row.delivery.id),
        ),
      );
    const subscriptionRows = await tx
      .select()
      .from(webhookSubscriptions)
      .where(inArray(webhookSubscriptions.id, [...new Set(rows.map((row) => row.delivery.subscriptionId))]));
    const eventRows = await tx
      .select()
      .from(events)
      .where(inArray(events.id, [...new Set(rows.map((row) => row.delivery.eventId))]));
    return rows.map(({ delivery, accountId }) => ({
      // As the claim left it: `updated_at` identifies this claim to `finish`.
      delivery: { ...delivery, state: "delivering", updatedAt: now },
      accountId,
      subscription: subscriptionRows.find((subscription) => subscription.id === delivery.subscriptionId),
      event: eventRows.find((event) => event.id === delivery.eventId),
    }));
  });
}

/**
 * The signature headers of one attempt (module doc). During a rotation's grace the previous
 * secret signs a second `v1,` entry, so receivers still holding it keep verifying.
 */
async function signatureHeaders(
  service: ServiceContext,
  subscription: SubscriptionRow,
  event: EventRow,
): Promise<Record<string, string>> {
  const secret = await webhookSecretOf(service, subscription.id, subscription.secretVersion);
  const timestamp = String(Math.floor(service.clock() / 1000));
  const secrets = [secret];
  const previousUntil = subscription.previousSecretExpiresAt;
  if (previousUntil !== null && Date.parse(previousUntil) > service.clock()) {
    secrets.push(await webhookSecretOf(service, subscription.id, subscription.secretVersion, true));
  }
  return {
    "x-service-signature": signWebhookBody(secret, event.payload),
    "x-service-event-id": event.id,
    "x-service-timestamp": timestamp,
    "webhook-id": event.id,
    "webhook-timestamp": timestamp,
    "webhook-signature": secrets
      .map((key) => signWebhookV1(key, { id: event.id, timestamp, body: event.payload }))
      .join(" "),
  };
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
  // The log records a fixed code, never a socket's or resolver's text (which can name internal
  // addresses): `timeout`, `response_too_large`, `connection_failed`, or the URL policy's reason.
  let outcome: { statusCode: number | null; error: AttemptOutcome["error"] | string };
  if (!check.ok) {
    outcome = { statusCode: null, error: check.reason };
  } else {
    outcome = await postWebhook({
      url: check.url,
      address: check.addresses[0] as string,
      body: event.payload,
      headers: { ...(await signatureHeaders(service, subscription, event)), "user-agent": "cpay-webhooks/1" },
      deadlineMs: service.config.webhooks.attemptDeadlineMs,
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
  /** Delivery id -> account id of every attempt in flight (one attempt per delivery; shares). */
  const sending = new Map<string, string>();
  let stopped = false;
  let pumping: Promise<void> | null = null;
  const failed = (error: unknown) =>
    service.logger.warn({ err: { name: (error as Error)?.name } }, "webhook delivery pass failed; retrying");
  /** Claims while there is room and something is due; returns when the queue is empty or the pool full. */
  const pump = async () => {
    while (!stopped && (await fanOutEvents(service)) > 0) {}
    while (!stopped && inFlight.size < CONCURRENCY) {
      const claimed = await claimDue(service, CONCURRENCY - inFlight.size, sending);
      for (const delivery of claimed) {
        sending.set(delivery.delivery.id, delivery.accountId);
        const attempting: Promise<void> = attempt(service, delivery, record)
          .catch(failed)
          .finally(() => {
            inFlight.delete(attempting);
            sending.delete(delivery.delivery.id);
            // Refill once half the pool is free: one claim transaction per several finished attempts.
            if (inFlight.size <= CONCURRENCY / 2) wake();
          });
        inFlight.add(attempting);
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
