/**
 * Signed webhooks end to end (spec 4.12-4.16, 6): subscriptions, deliveries of the events a
 * transfer fires (each once, signed, verifiable with the secret shown at creation), retries with
 * their status codes in the log when the receiver fails, delete mid-retry, and replay. Retries are
 * driven by a controllable clock, not by waiting.
 */
import { verifyWebhook } from "@cpay/sdk/webhooks";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, usdg } from "../support/api-world";
import { eventually } from "../support/eventually";
import { perSuite } from "../support/shared-set-up";
import { startWebhookEndpoint, type WebhookDelivery } from "../support/webhook-endpoint";

describe("signed webhooks", () => {
  const received: WebhookDelivery[] = [];
  /** Status codes the receiver answers with per path, in order; 200 once they run out. */
  const scripts = new Map<string, number[]>();
  // Started before the world and stopped after it (after-hooks run in reverse order).
  const endpoint = perSuite(
    async () => ({
      receiver: await startWebhookEndpoint({
        onDelivery: (delivery) => {
          received.push(delivery);
        },
        statusOf: (delivery) => scripts.get(delivery.path)?.shift() ?? 200,
      }),
    }),
    ({ receiver }) => receiver.close(),
  );
  /** Each test has its own receiver path (and subscription), so their deliveries never mix. */
  const at = (path: string) => ({
    url: `${endpoint.receiver.url}/hooks/${path}`,
    got: () => received.filter((r) => r.path === `/hooks/${path}`),
  });
  let offsetMs = 0;
  const given = apiSuite({
    world: { env: { WEBHOOKS_ALLOW_LOCAL: "1" }, clock: () => Date.now() + offsetMs },
    accounts: ["alice", "bob"],
    funds: { alice: { public: usdg(20) } },
  });

  /** Polls a subscription's delivery log, moving the clock `stepMs` per poll, until its first delivery is `state`. */
  const deliveriesAsClockMoves = (webhookId: string, stepMs: number, state: string) =>
    eventually(
      async () => {
        offsetMs += stepMs;
        return given.alice.client.call("listDeliveries", { params: { webhook_id: webhookId } });
      },
      (value) => value.deliveries[0]?.state === state,
    );
  const eventOf = (r: WebhookDelivery) => (JSON.parse(r.body) as { event: string }).event;

  it("shows the secret once, delivers each event of a transfer once, signed and verifiable", async () => {
    const hook = at("signed");
    const created = await given.alice.client.call("createWebhook", {
      body: { url: hook.url, events: ["transfer.initiated", "transfer.confirmed"] },
    });
    expect(created.secret).toMatch(/^whsec_/);
    const listed = await given.alice.client.call("listWebhooks");
    expect(listed.webhooks).toContainEqual({
      webhook_id: created.webhook_id,
      url: hook.url,
      events: created.events,
      created_at: created.created_at,
    });
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const transfer = await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "1", confidential: false },
    });
    // Once the service says both were delivered at the first attempt (a second send of either would
    // show as another attempt or another delivery), a few slots after the indexer confirmed it
    await eventually(
      () => hook.got().filter((r) => eventOf(r) === "transfer.confirmed").length,
      (n) => n >= 1,
    );
    await given.world.slots(4);
    const log = await eventually(
      () => given.alice.client.call("listDeliveries", { params: { webhook_id: created.webhook_id } }),
      (value) => value.deliveries.length >= 2 && value.deliveries.every((d) => d.state === "delivered"),
    );
    expect(log.deliveries.map((delivery) => delivery.attempts)).toEqual([1, 1]);
    expect(hook.got().map(eventOf).sort()).toEqual(["transfer.confirmed", "transfer.initiated"]);
    for (const delivery of hook.got()) {
      const payload = JSON.parse(delivery.body) as Record<string, unknown>;
      expect(payload).toMatchObject({
        transfer_id: transfer.transfer_id,
        account: "@alice",
        confidential: false,
      });
      expect(payload).not.toHaveProperty("amount");
      expect(delivery.headers["x-service-event-id"]).toBe(payload.event_id);
      const check = {
        secret: created.secret ?? "",
        rawBody: delivery.body,
        signature: delivery.headers["x-service-signature"] as string,
      };
      expect(verifyWebhook(check)).toEqual({ ok: true });
      // The Standard Webhooks signature, which also covers the id and the timestamp.
      expect(delivery.headers["webhook-id"]).toBe(payload.event_id);
      expect(delivery.headers["webhook-timestamp"]).toBe(delivery.headers["x-service-timestamp"]);
      expect(
        verifyWebhook({ secret: created.secret ?? "", rawBody: delivery.body, headers: delivery.headers }),
      ).toEqual({
        ok: true,
      });
      expect(verifyWebhook({ ...check, secret: `${created.secret}x` }).ok).toBe(false);
      expect(verifyWebhook({ ...check, rawBody: delivery.body.replace("@alice", "@mallory") }).ok).toBe(
        false,
      );
    }
  });

  it("rotates the secret: the new one is shown once, and both sign during the grace period", async () => {
    const hook = at("rotated");
    const created = await given.alice.client.call("createWebhook", {
      body: { url: hook.url, events: ["transfer.initiated"] },
    });
    const rotated = await given.alice.client.call("rotateWebhookSecret", {
      params: { webhook_id: created.webhook_id },
    });
    expect(rotated.webhook_id).toBe(created.webhook_id);
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.previous_secret_expires_at) - (Date.now() + offsetMs)).toBeGreaterThan(
      23 * 60 * 60_000,
    );
    expect(JSON.stringify(await given.alice.client.call("listWebhooks"))).not.toContain(rotated.secret);
    await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "1", confidential: false },
    });
    const [delivery] = await eventually(
      () => hook.got(),
      (got) => got.length >= 1,
    );
    const nowSeconds = Number(delivery?.headers["webhook-timestamp"]);
    const verify = (secret: string) =>
      verifyWebhook({
        secret,
        rawBody: delivery?.body as string,
        headers: delivery?.headers ?? {},
        nowSeconds,
      });
    expect(String(delivery?.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verify(rotated.secret ?? "")).toEqual({ ok: true });
    expect(verify(created.secret ?? "")).toEqual({ ok: true });
    // The spec's header is signed with the new secret.
    expect(
      verifyWebhook({
        secret: rotated.secret ?? "",
        rawBody: delivery?.body as string,
        signature: delivery?.headers["x-service-signature"] as string,
      }),
    ).toEqual({ ok: true });
    const foreign = await refusalOf(
      (await given.world.account("eve")).client.call("rotateWebhookSecret", {
        params: { webhook_id: created.webhook_id },
      }),
    );
    expect([foreign.status, foreign.code]).toEqual([404, "webhook_not_found"]);
  });

  it("retries a failing receiver with backoff, logging every attempt's status code, until it answers 2xx", async () => {
    const hook = at("flaky");
    const created = await given.alice.client.call("createWebhook", {
      body: { url: hook.url, events: ["transfer.initiated"] },
    });
    scripts.set("/hooks/flaky", [500, 503]);
    await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "1", confidential: false },
    });
    // The first attempt fails at once; each poll moves the clock an hour, so every retry is due
    // whenever the worker scheduled it (never waiting for real time).
    const log = await deliveriesAsClockMoves(created.webhook_id, 60 * 60_000, "delivered");
    const [delivery] = log.deliveries;
    expect(log.deliveries).toHaveLength(1);
    expect(delivery?.history.map((h) => h.status_code)).toEqual([500, 503, 200]);
    expect(delivery).toMatchObject({ attempts: 3, retry_count: 2, last_status_code: 200 });
    expect(hook.got()).toHaveLength(3);
    expect(new Set(hook.got().map((r) => r.headers["x-service-event-id"])).size).toBe(1);
  });

  it("stops retrying at once when the subscription is deleted mid-retry", async () => {
    const hook = at("deleted");
    const created = await given.alice.client.call("createWebhook", {
      body: { url: hook.url, events: ["transfer.initiated"] },
    });
    scripts.set("/hooks/deleted", [500, 500, 500]);
    await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "1", confidential: false },
    });
    await eventually(
      () => hook.got().length,
      (n) => n >= 1,
    );
    const deleted = await given.alice.client.call("deleteWebhook", {
      params: { webhook_id: created.webhook_id },
    });
    expect(deleted).toEqual({ webhook_id: created.webhook_id, deleted: true, cancelled_deliveries: 1 });
    offsetMs += 2 * 60 * 60_000;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(hook.got()).toHaveLength(1);
    const gone = await refusalOf(
      given.alice.client.call("listDeliveries", { params: { webhook_id: created.webhook_id } }),
    );
    expect([gone.status, gone.code]).toEqual([404, "webhook_not_found"]);
  });

  it("replays a delivered event on demand", async () => {
    const hook = at("replay");
    const created = await given.alice.client.call("createWebhook", {
      body: { url: hook.url, events: ["transfer.initiated"] },
    });
    await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "1", confidential: false },
    });
    const log = await eventually(
      () => given.alice.client.call("listDeliveries", { params: { webhook_id: created.webhook_id } }),
      (value) => value.deliveries[0]?.state === "delivered",
    );
    const eventId = log.deliveries[0]?.event_id as string;
    const replayed = await given.alice.client.call("replayEvent", {
      params: { webhook_id: created.webhook_id, event_id: eventId },
    });
    expect(replayed).toMatchObject({ event_id: eventId, state: "queued" });
    await eventually(
      () => hook.got().length,
      (n) => n >= 2,
    );
    expect(hook.got().map((r) => r.headers["x-service-event-id"])).toEqual([eventId, eventId]);
    const after = await eventually(
      () => given.alice.client.call("listDeliveries", { params: { webhook_id: created.webhook_id } }),
      (value) => value.deliveries[0]?.attempts === 2,
    );
    expect(after.deliveries[0]?.state).toBe("delivered");
    const unknown = await refusalOf(
      given.alice.client.call("replayEvent", {
        params: { webhook_id: created.webhook_id, event_id: `evt_${"a".repeat(26)}` },
      }),
    );
    expect([unknown.status, unknown.code]).toEqual([404, "event_not_found"]);
  });

  it("never follows a redirect: a 3xx is a failed attempt, logged and retried", async () => {
    const hook = at("redirect");
    const created = await given.alice.client.call("createWebhook", {
      body: { url: hook.url, events: ["transfer.initiated"] },
    });
    scripts.set("/hooks/redirect", [302]);
    await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "1", confidential: false },
    });
    // Each poll moves the clock an hour, so the retry is due whenever the worker scheduled it.
    const log = await deliveriesAsClockMoves(created.webhook_id, 60 * 60_000, "delivered");
    expect(log.deliveries[0]?.history.map((h) => h.status_code)).toEqual([302, 200]);
    // The receiver's redirect target (any other path) was never called.
    expect(received.filter((r) => r.path === "/hooks/redirect-target")).toHaveLength(0);
  });

  it("given a receiver that always fails, retries until 24 h after the event, then marks the delivery failed", async () => {
    const hook = at("down");
    const created = await given.alice.client.call("createWebhook", {
      body: { url: hook.url, events: ["transfer.initiated"] },
    });
    scripts.set("/hooks/down", Array(500).fill(500));
    const eventAt = Date.now() + offsetMs;
    await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "1", confidential: false },
    });
    const log = await deliveriesAsClockMoves(created.webhook_id, 30 * 60_000, "failed");
    const [delivery] = log.deliveries;
    expect(delivery?.history.every((h) => h.status_code === 500)).toBe(true);
    expect(delivery?.attempts).toBeGreaterThan(5);
    const last = Date.parse(delivery?.history.at(-1)?.at as string);
    // Retried for (nearly) the whole day. (That no retry is ever scheduled past 24 h is the
    // schedule's own property, tested in retry-schedule.test.ts; here the test clock races ahead in
    // 30 min steps during each POST, so an attempt's recorded time can lag its due time.)
    expect(last - eventAt).toBeGreaterThan(23 * 60 * 60_000);
    expect(delivery?.next_attempt_at).toBeNull();
  });

  it("refuses a URL that is not http(s), an unknown event type, and another account's subscription", async () => {
    const bad = await refusalOf(
      given.alice.client.call("createWebhook", {
        body: { url: "ftp://example.com/x", events: ["transfer.failed"] },
      }),
    );
    expect([bad.status, bad.code, bad.param]).toEqual([400, "invalid_webhook_url", "url"]);
    const unknown = await refusalOf(
      given.alice.client.call("createWebhook", {
        body: { url: at("x").url, events: ["transfer.exploded" as never] },
      }),
    );
    expect(unknown.status).toBe(400);
    const mallory = await given.world.account("mallory");
    const [first] = (await given.alice.client.call("listWebhooks")).webhooks;
    const foreign = await refusalOf(
      mallory.client.call("deleteWebhook", { params: { webhook_id: first?.webhook_id as string } }),
    );
    expect([foreign.status, foreign.code]).toEqual([404, "webhook_not_found"]);
  });
});
