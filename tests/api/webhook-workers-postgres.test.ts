/**
 * Scale-out on PostgreSQL (DESIGN sections 8, 10): two API processes' delivery workers share one
 * outbox and never deliver one attempt twice (`FOR UPDATE SKIP LOCKED`). Both services run here on
 * one database and one cluster. Always on PostgreSQL: DATABASE_URL when it is a PostgreSQL URL,
 * else the cluster `scripts/postgres.sh` starts — so this runs in both passes of the test command.
 */
import { randomBytes } from "node:crypto";
import { createAccount, issueApiKey, type RunningService, startService } from "@cpay/api";
import { deliverDue } from "@cpay/api/webhook-worker";
import { recordEvent } from "@cpay/ledger";
import { createApiClient } from "@cpay/sdk/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, postgresServerUrl } from "../support/api-database";
import { startTestChain, type TestChain, testChainMode } from "../support/test-chain";
import { startWebhookEndpoint, type WebhookEndpoint } from "../support/webhook-endpoint";

const EVENTS = 60;

describe("two webhook workers on PostgreSQL", () => {
  let testChain: TestChain | undefined;
  const services: RunningService[] = [];
  let receiver: WebhookEndpoint;
  let dropDatabase: (() => Promise<void>) | undefined;
  const received: string[] = [];

  beforeAll(async () => {
    const database = await createPostgresDatabase(postgresServerUrl());
    dropDatabase = database.drop;
    receiver = await startWebhookEndpoint({
      onDelivery: async ({ headers }) => {
        received.push(String(headers["x-service-event-id"]));
        // Slow enough that both workers have due deliveries at the same time.
        await new Promise((done) => setTimeout(done, 15));
      },
    });
    testChain = await startTestChain(testChainMode(), 50);
    const env = {
      PORT: "0",
      DATABASE_URL: database.url,
      SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
      WEBHOOKS_ALLOW_LOCAL: "1",
      LOG_LEVEL: "silent",
    };
    // Sequentially: the first one migrates and initialises the program config.
    services.push(await startService({ env, connection: await (testChain as TestChain).connect() }));
    services.push(await startService({ env, connection: await (testChain as TestChain).connect() }));
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.close()));
    await testChain?.stop();
    await receiver?.close();
    await dropDatabase?.();
  });

  it("deliver every event exactly once between them", async () => {
    const [first, second] = services as [RunningService, RunningService];
    expect(first.context.db.dialect).toBe("postgres");
    const { account } = await createAccount(first.context, {
      handle: "alice",
      type: "personal",
      kycStatus: "verified",
    });
    const key = await issueApiKey(first.context, { accountId: account.id, name: "t", environment: "test" });
    // Subscribed through the second service, so both see the same subscription in the database.
    const client = createApiClient({ baseUrl: second.url, apiKey: key.value });
    await client.call("createWebhook", {
      body: {
        url: `${receiver.url}/hooks`,
        events: ["agent.policy.updated"],
      },
    });
    const ids: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const id = await first.context.db.transaction((tx) =>
        recordEvent(first.context, tx, {
          type: "agent.policy.updated",
          accountId: account.id,
          resourceId: `policy_${i}`,
          factKey: `test:${i}`,
          payload: {
            account: "@alice",
            agent_account_id: account.id,
            policy_id: `policy_${i}`,
            tx_signature: `test-${i}`,
          },
        }),
      );
      ids.push(id as string);
    }
    // Besides their own timers, both workers are driven at the same instant, again and again: each
    // pass claims in a transaction, so without SKIP LOCKED both would claim the same rows. Until
    // every delivery is recorded delivered: a delivered row is never claimed again, so nothing is
    // sent after (an attempt of a worker's own timer may still be on its way when all have arrived
    // from the test's passes, and a fixed pause assumed it had landed). The deadline is a safety net.
    const { webhookDeliveries } = first.context.db.tables;
    const allDelivered = async () => {
      const rows = await first.context.db.read((q) => q.select().from(webhookDeliveries));
      return rows.length === EVENTS && rows.every((row) => row.state === "delivered");
    };
    const deadline = Date.now() + 60_000;
    while (!(await allDelivered())) {
      if (Date.now() > deadline) throw new Error(`only ${received.length} of ${EVENTS} delivered in 60 s`);
      await Promise.all([deliverDue(first.context), deliverDue(second.context)]);
    }
    expect(received).toHaveLength(EVENTS);
    expect(new Set(received)).toEqual(new Set(ids));
  });
});
