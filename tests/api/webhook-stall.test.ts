/**
 * One account cannot stall everyone's webhooks. Account A points several subscriptions at a
 * receiver that answers one byte every 300 ms and never finishes, and fires enough events to fill
 * every delivery slot of the worker; account B's delivery must still arrive promptly, and each of
 * A's attempts must end at the per-attempt deadline with a failure in its log. Also: the cap on
 * subscriptions per account, and fan-out outside the transaction that records the event.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { recordEvent } from "@cpay/ledger";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, type WorldAccount } from "../support/api-world";
import { perSuite } from "../support/shared-set-up";

const DEADLINE_MS = 2_500;
/** More of A's deliveries than the worker has slots (32 before per-account shares existed). */
const A_SUBSCRIPTIONS = 4;
const A_EVENTS = 12;

describe("a receiver that trickles its answer", () => {
  const trickling = new Set<ServerResponse>();
  /** B's deliveries, each with the trickler's answers still open when it arrived. */
  const promptArrivals: { eventId: string; hanging: ReadonlySet<ServerResponse> }[] = [];
  let facts = 0;

  const serve = async (server: Server) => {
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  };
  const fire = (account: WorldAccount) =>
    given.world.service.context.db.transaction((tx) =>
      recordEvent(given.world.service.context, tx, {
        type: "agent.policy.updated",
        accountId: account.account.id,
        resourceId: `policy_${facts}`,
        factKey: `stall-test:${facts++}`,
        payload: {
          account: `@${account.account.handle}`,
          agent_account_id: account.account.id,
          policy_id: "policy_stall",
          tx_signature: "stall-test",
        },
      }),
    );

  // The receivers start before the world and stop after it (after-hooks run in reverse order).
  const servers = perSuite(
    async () => {
      const trickler = createServer((request, response) => {
        request.resume();
        trickling.add(response);
        response.writeHead(200, { "content-type": "text/plain" });
        const timer = setInterval(() => response.write("."), 300);
        response.on("close", () => {
          clearInterval(timer);
          trickling.delete(response);
        });
      });
      const prompt = createServer((request, response) => {
        request.resume();
        request.on("end", () => {
          promptArrivals.push({
            eventId: String(request.headers["x-service-event-id"]),
            hanging: new Set(trickling),
          });
          response.end();
        });
      });
      return { trickler, prompt, tricklerUrl: await serve(trickler), promptUrl: await serve(prompt) };
    },
    async ({ trickler, prompt }) => {
      for (const response of trickling) response.destroy();
      await Promise.all([trickler, prompt].map((server) => new Promise((done) => server.close(done))));
    },
  );
  const given = apiSuite({
    world: { env: { WEBHOOKS_ALLOW_LOCAL: "1", WEBHOOK_ATTEMPT_DEADLINE_MS: String(DEADLINE_MS) } },
    accounts: { a: "trickler", b: "victim" },
  });
  beforeAll(async () => {
    for (let i = 0; i < A_SUBSCRIPTIONS; i++) {
      await given.a.client.call("createWebhook", {
        body: { url: `${servers.tricklerUrl}/${i}`, events: ["agent.policy.updated"] },
      });
    }
    await given.b.client.call("createWebhook", {
      body: { url: servers.promptUrl, events: ["agent.policy.updated"] },
    });
  });

  it("given A's deliveries hanging on it, B's delivery is still delivered promptly", async () => {
    for (let i = 0; i < A_EVENTS; i++) await fire(given.a);
    // Until A's attempts hold the slots they can get.
    await until("A's attempts to hang", () => trickling.size >= A_SUBSCRIPTIONS);
    const hangingWhenFired = [...trickling];
    const eventId = await fire(given.b);
    await until("B's delivery", () => promptArrivals.some((p) => p.eventId === eventId));
    // B's delivery arrived while every attempt of A's that hung when B fired still hung: it waited
    // for none of them to reach its deadline (a lower bound on promptness that holds on a busy
    // machine, where a fixed "within 1 s" does not).
    const arrival = promptArrivals.find((p) => p.eventId === eventId);
    expect(hangingWhenFired.filter((response) => !arrival?.hanging.has(response))).toEqual([]);
    // A holds no more than its share of the slots, however many of its deliveries are due.
    expect(trickling.size).toBeLessThanOrEqual(8);
  });

  it("an attempt against the trickler ends at the deadline with a recorded failure", async () => {
    const [hook] = (await given.a.client.call("listWebhooks")).webhooks;
    const started = Date.now();
    let log = await given.a.client.call("listDeliveries", {
      params: { webhook_id: hook?.webhook_id as string },
    });
    // A safety net, not a schedule: the attempt ends at its deadline, a busy machine notes it later.
    while (Date.now() - started < DEADLINE_MS + 30_000 && !log.deliveries.some((d) => d.attempts > 0)) {
      await sleep(100);
      log = await given.a.client.call("listDeliveries", {
        params: { webhook_id: hook?.webhook_id as string },
      });
    }
    const attempted = log.deliveries.find((d) => d.attempts > 0);
    expect(attempted, "no attempt of A's ended").toBeDefined();
    expect(attempted?.state).toBe("queued");
    expect(attempted?.history[0]).toMatchObject({ status_code: null, error: "timeout" });
  });

  it("refuses a subscription beyond the account's cap with a code naming the rule", async () => {
    const c = await given.world.account("collector");
    for (let i = 0; i < 10; i++) {
      await c.client.call("createWebhook", {
        body: { url: `http://127.0.0.1:9/c/${i}`, events: ["transfer.initiated"] },
      });
    }
    const refused = await refusalOf(
      c.client.call("createWebhook", {
        body: { url: "http://127.0.0.1:9/c/10", events: ["transfer.initiated"] },
      }),
    );
    expect([refused.status, refused.code]).toEqual([409, "webhook_limit_reached"]);
    expect((await c.client.call("listWebhooks")).webhooks).toHaveLength(10);
    // A deleted subscription frees its place.
    const [first] = (await c.client.call("listWebhooks")).webhooks;
    await c.client.call("deleteWebhook", { params: { webhook_id: first?.webhook_id as string } });
    await c.client.call("createWebhook", {
      body: { url: "http://127.0.0.1:9/c/11", events: ["transfer.initiated"] },
    });
  });

  it("records an event without writing its deliveries in the same transaction", async () => {
    const { webhookDeliveries } = given.world.service.context.db.tables;
    const inside = await given.world.service.context.db.transaction(async (tx) => {
      const id = await recordEvent(given.world.service.context, tx, {
        type: "agent.policy.updated",
        accountId: given.b.account.id,
        resourceId: "policy_outbox",
        factKey: `stall-test:${facts++}`,
        payload: {
          account: "@victim",
          agent_account_id: given.b.account.id,
          policy_id: "policy_outbox",
          tx_signature: "stall-test-outbox",
        },
      });
      return tx
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.eventId, id as string));
    });
    expect(inside).toEqual([]);
  });
});

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Polls `done` until it holds; the deadline is a safety net for a busy machine, not a schedule. */
async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} not within 30 s`);
    await sleep(20);
  }
}
