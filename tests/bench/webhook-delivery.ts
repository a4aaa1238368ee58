/**
 * Webhook delivery against a bare loop doing the same HTTP work, both in this process against a
 * local HTTPS receiver answering 200 (a self-signed certificate for 127.0.0.1, made with the
 * `openssl` CLI and added to the process's default CA certificates for the run, since the worker
 * opens a connection of its own for every attempt, without an agent, and the bare loop does too):
 * - baseline: a bare loop that signs (`signWebhookBody`) and POSTs DELIVERIES event bodies with the
 *   worker's headers, WORKER_CONCURRENCY in flight (the worker's claim batch, deliver-webhooks.ts);
 *   deliveries per second, and per-request latency (signing to arrival at the receiver) p50/p99.
 * - the service: DELIVERIES events recorded into the outbox as the API records them (`recordEvent`
 *   in a transaction of its own each, for an account with a subscription), back to back, delivered
 *   by the service's own worker (the background job of the API world); deliveries per second from
 *   the first insert until all are `delivered` (goal: at least 0.5x the bare loop), and per
 *   delivery the event-to-delivery latency (arrival at the receiver minus the event's
 *   `created_at`) p50/p99. The events arrive as a burst, so latency includes waiting in the queue.
 * - the service at a steady trickle: STEADY_EVENTS events, one every STEADY_GAP_MS, each in its own
 *   transaction: event-to-delivery p50/p99 when nothing queues (the worker polls every 100 ms).
 * The world starts first, so both sides run beside the same idle service (slot timer, jobs).
 * WEBHOOKS_ALLOW_LOCAL=1 admits the loopback receiver, as in tests/api/webhooks.test.ts (which
 * serves plain HTTP); HTTPS here keeps the TLS cost of a real receiver in both figures.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpsRequest, createServer as httpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { getCACertificates, setDefaultCACertificates } from "node:tls";
import { recordEvent } from "@cpay/ledger";
import { newId } from "@cpay/ledger/ids";
import { signWebhookBody } from "@cpay/sdk/webhooks";
import { and, count, eq } from "drizzle-orm";
import { type ApiWorld, startApiWorld } from "../support/api-world";
import type { BenchEntry, BenchResult } from "./bench-entry";
import { BENCH_SERVICE_LIMITS } from "./bench-limits";
import { benchScale } from "./bench-scale";

const DELIVERIES = benchScale("BENCH_WEBHOOK_DELIVERIES", { full: 500, smoke: 20 });
/** deliver-webhooks.ts keeps up to CONCURRENCY = 32 attempts in flight per process. */
const WORKER_CONCURRENCY = 32;
const DRAIN_TIMEOUT_MS = 120_000;
const STEADY_EVENTS = benchScale(null, { full: 100, smoke: 5 });
const STEADY_GAP_MS = 20;

export const webhookDelivery: BenchEntry = {
  name: "webhook delivery",
  async run(): Promise<BenchResult[]> {
    const tls = selfSignedCertificate();
    const trusted = getCACertificates("default");
    setDefaultCACertificates([...trusted, tls.cert]);
    const world = await startApiWorld({ env: { ...BENCH_SERVICE_LIMITS, WEBHOOKS_ALLOW_LOCAL: "1" } });
    try {
      const bare = await bareLoop(tls);
      const service = await serviceWorker(world, tls);
      const steady = await steadyTrickle(world, tls);
      return [
        {
          name: "webhook deliveries/s (outbox + worker)",
          unit: "deliveries/s",
          value: Number(service.throughput.toFixed(1)),
          baselineName: `bare sign+POST loop, ${WORKER_CONCURRENCY} in flight`,
          baseline: Number(bare.throughput.toFixed(1)),
          goal: 0.5,
          higherIsBetter: true,
        },
        {
          name: `webhook event-to-delivery p50, burst of ${DELIVERIES}`,
          unit: "ms",
          value: round(percentile(service.latencies, 0.5)),
          baselineName: "bare loop per-request p50",
          baseline: round(percentile(bare.latencies, 0.5)),
        },
        {
          name: `webhook event-to-delivery p99, burst of ${DELIVERIES}`,
          unit: "ms",
          value: round(percentile(service.latencies, 0.99)),
          baselineName: "bare loop per-request p99",
          baseline: round(percentile(bare.latencies, 0.99)),
        },
        {
          name: `webhook event-to-delivery p50, one event per ${STEADY_GAP_MS} ms`,
          unit: "ms",
          value: round(percentile(steady, 0.5)),
          baselineName: "bare loop per-request p50",
          baseline: round(percentile(bare.latencies, 0.5)),
        },
        {
          name: `webhook event-to-delivery p99, one event per ${STEADY_GAP_MS} ms`,
          unit: "ms",
          value: round(percentile(steady, 0.99)),
          baselineName: "bare loop per-request p99",
          baseline: round(percentile(bare.latencies, 0.99)),
        },
      ];
    } finally {
      await world.close();
      setDefaultCACertificates(trusted);
      rmSync(tls.dir, { recursive: true, force: true });
    }
  },
};

interface Measured {
  readonly throughput: number;
  /** Milliseconds, one per delivery. */
  readonly latencies: readonly number[];
}

type Tls = ReturnType<typeof selfSignedCertificate>;

async function bareLoop(tls: Tls): Promise<Measured> {
  const receiver = await startReceiver(tls);
  const secret = "whsec_bench";
  const started = new Map<string, number>();
  const begun = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKER_CONCURRENCY }, async () => {
      while (next < DELIVERIES) {
        const eventId = `evt_bare_${next}`;
        next += 1;
        started.set(eventId, wallMs());
        const body = eventBody(eventId);
        const statusCode = await post(receiver.url, body, {
          "x-service-signature": signWebhookBody(secret, body),
          "x-service-event-id": eventId,
          "x-service-timestamp": String(Math.floor(Date.now() / 1000)),
          "user-agent": "cpay-webhooks/1",
        });
        if (statusCode !== 200) throw new Error(`the receiver answered ${statusCode}`);
      }
    }),
  );
  const throughput = DELIVERIES / ((performance.now() - begun) / 1000);
  await receiver.close();
  return { throughput, latencies: latenciesOf(receiver.arrivals, started) };
}

async function serviceWorker(world: ApiWorld, tls: Tls): Promise<Measured> {
  const receiver = await startReceiver(tls);
  const { context } = world.service;
  const { account, client } = await world.account("hooked");
  const subscription = await client.call("createWebhook", {
    body: { url: receiver.url, events: ["transfer.confirmed"] },
  });
  // The burst lands in one transaction (as the indexer's catch-up after downtime would), and the
  // rate is timed from its commit: the worker's claim, sign, POST, record — not how fast the test
  // writes events. (Latency still counts from each event's created_at, before the commit.)
  await context.db.transaction(async (tx) => {
    for (let i = 0; i < DELIVERIES; i++) {
      const transferId = newId("tr");
      await recordEvent(context, tx, {
        type: "transfer.confirmed",
        accountId: account.id,
        resourceId: transferId,
        factKey: `transfer.confirmed:${transferId}`,
        payload: { ...PAYLOAD, account: `@${account.handle}`, transfer_id: transferId },
      });
    }
  });
  const begun = performance.now();
  const { webhookDeliveries, events } = context.db.tables;
  const delivered = async () => {
    const [row] = await context.db.read((db) =>
      db
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.subscriptionId, subscription.webhook_id),
            eq(webhookDeliveries.state, "delivered"),
          ),
        ),
    );
    return row?.n ?? 0;
  };
  while ((await delivered()) < DELIVERIES) {
    if (performance.now() - begun > DRAIN_TIMEOUT_MS) {
      throw new Error(`only ${await delivered()} of ${DELIVERIES} webhooks delivered in time`);
    }
    await sleep(50);
  }
  const throughput = DELIVERIES / ((performance.now() - begun) / 1000);
  await receiver.close();
  const recorded = await context.db.read((db) =>
    db
      .select({ id: events.id, createdAt: events.createdAt })
      .from(events)
      .where(eq(events.accountId, account.id)),
  );
  const created = new Map(recorded.map((event) => [event.id, Date.parse(event.createdAt)]));
  if (receiver.arrivals.size !== DELIVERIES || created.size !== DELIVERIES) {
    throw new Error(`${receiver.arrivals.size} deliveries arrived for ${created.size} events`);
  }
  return { throughput, latencies: latenciesOf(receiver.arrivals, created) };
}

/** Events one at a time, each in its own transaction; per delivery, arrival minus created_at. */
async function steadyTrickle(world: ApiWorld, tls: Tls): Promise<number[]> {
  const receiver = await startReceiver(tls);
  const { context } = world.service;
  const { account, client } = await world.account("trickled");
  await client.call("createWebhook", { body: { url: receiver.url, events: ["transfer.confirmed"] } });
  for (let i = 0; i < STEADY_EVENTS; i++) {
    const transferId = newId("tr");
    await context.db.transaction((tx) =>
      recordEvent(context, tx, {
        type: "transfer.confirmed",
        accountId: account.id,
        resourceId: transferId,
        factKey: `transfer.confirmed:${transferId}`,
        payload: { ...PAYLOAD, account: `@${account.handle}`, transfer_id: transferId },
      }),
    );
    await sleep(STEADY_GAP_MS);
  }
  const deadline = performance.now() + DRAIN_TIMEOUT_MS;
  while (receiver.arrivals.size < STEADY_EVENTS) {
    if (performance.now() > deadline)
      throw new Error(`only ${receiver.arrivals.size} trickled webhooks arrived`);
    await sleep(20);
  }
  await receiver.close();
  const { events } = context.db.tables;
  const recorded = await context.db.read((db) =>
    db
      .select({ id: events.id, createdAt: events.createdAt })
      .from(events)
      .where(eq(events.accountId, account.id)),
  );
  const created = new Map(recorded.map((event) => [event.id, Date.parse(event.createdAt)]));
  return [...latenciesOf(receiver.arrivals, created)];
}

/** A spec 6.2 `transfer.confirmed` body, the size the worker sends. */
const PAYLOAD = {
  direction: "sent" as const,
  counterparty: "@recipient",
  asset: "USDG",
  confidential: false,
  tx_signature: "5".repeat(88),
};

function eventBody(eventId: string): string {
  return JSON.stringify({
    event: "transfer.confirmed",
    event_id: eventId,
    ...PAYLOAD,
    account: "@hooked",
    transfer_id: newId("tr"),
    timestamp: new Date().toISOString(),
  });
}

/** The worker's request (post-webhook.ts): POST, JSON, 10 s time-out, the same global agent. */
function post(url: string, body: string, headers: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      url,
      {
        method: "POST",
        // A connection of its own, as the worker's attempts (post-webhook.ts): the same TLS work.
        agent: false,
        timeout: 10_000,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? null));
      },
    );
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", reject);
    request.end(body);
  });
}

/** An HTTPS server on 127.0.0.1 answering 200, noting when each event id first arrived. */
async function startReceiver(tls: Tls) {
  const arrivals = new Map<string, number>();
  const server = httpsServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    request.resume();
    request.on("end", () => {
      const eventId = String(request.headers["x-service-event-id"]);
      if (!arrivals.has(eventId)) arrivals.set(eventId, wallMs());
      response.statusCode = 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A throwaway key and certificate for IP 127.0.0.1 (the bench's receiver only). */
function selfSignedCertificate() {
  const dir = mkdtempSync(join(tmpdir(), "cpay-bench-tls-"));
  const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1"],
    ],
    { stdio: "ignore" },
  );
  return { dir, key: readFileSync(key), cert: readFileSync(cert) };
}

/** Wall-clock milliseconds with sub-millisecond resolution (comparable with `Date.now()`). */
function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

function latenciesOf(arrivals: ReadonlyMap<string, number>, started: ReadonlyMap<string, number>): number[] {
  return [...started].map(([eventId, at]) => {
    const arrived = arrivals.get(eventId);
    if (arrived === undefined) throw new Error(`${eventId} never arrived`);
    return arrived - at;
  });
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

function round(ms: number): number {
  return Number(ms.toFixed(2));
}
