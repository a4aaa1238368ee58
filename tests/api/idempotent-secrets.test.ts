/**
 * Secrets are shown once, also under `Idempotency-Key`: the replay of a self-custody agent's
 * creation and of a webhook subscription's creation keeps its status and fields, but the secret
 * is withheld (`null`, `secret_already_delivered: true`); no row of any table (the stored answers
 * opened with the master key included) holds the secret; and a request's stored fingerprint does
 * not give its amount away to anyone who reads the table.
 */
import { createHash } from "node:crypto";
import { openSecret } from "@cpay/api/vault-crypto";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { TEST_POLICY } from "./support/agents";
import { postWithIdempotencyKey } from "./support/idempotent-post";

describe("secrets under Idempotency-Key", () => {
  const given = apiSuite({
    world: { env: { WEBHOOKS_ALLOW_LOCAL: "1" } },
    accounts: ["alice", "bob"],
    funds: { alice: { confidential: usdg(10) } },
  });

  const post = (path: string, key: string, body: unknown) =>
    postWithIdempotencyKey(given.world, { apiKey: given.alice.key.value, path, key, body });

  /** Every row of every table, with each stored idempotency answer opened under the master key. */
  async function everythingStored(): Promise<string> {
    const { db, config } = given.world.service.context;
    let dump = "";
    for (const [name, table] of Object.entries(db.tables)) {
      const rows = await db.read((q) => q.select().from(table));
      dump += `${name}\n${JSON.stringify(rows)}\n`;
    }
    const answers = await db.read((q) => q.select().from(db.tables.idempotencyKeys));
    for (const row of answers) {
      if (row.responseBody === null) continue;
      const opened = openSecret(config.masterKey, row.accountId, `idempotency:${row.key}`, row.responseBody);
      dump += `${new TextDecoder().decode(opened)}\n`;
    }
    return dump;
  }

  it.each([
    {
      what: "a self-custody agent",
      withheld: "signer_secret",
      path: "/v1/accounts/me/agents",
      key: "agent-self-1",
      body: { name: "self-held", spend_policy: TEST_POLICY, custody: "self" },
      secretField: "signer_secret",
      secretShape: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
      idField: "account_id",
    },
    {
      what: "a webhook",
      withheld: "the secret",
      path: "/v1/webhooks",
      key: "webhook-1",
      body: { url: "http://127.0.0.1:9/hooks", events: ["transfer.confirmed"] },
      secretField: "secret",
      secretShape: /^whsec_/,
      idField: "webhook_id",
    },
  ])(
    "Given $what created with a key, When the request is repeated, Then the replay withholds $withheld",
    async ({ path, key, body, secretField, secretShape, idField }) => {
      const first = await post(path, key, body);
      expect(first.status).toBe(201);
      const secret = first.body[secretField] as string;
      expect(secret).toMatch(secretShape);

      const replay = await post(path, key, body);
      expect(replay.replayed).toBe("true");
      expect(replay.status).toBe(201);
      expect(replay.body[idField]).toBe(first.body[idField]);
      expect(JSON.stringify(replay.body)).not.toContain(secret);
      expect(replay.body).toMatchObject({ [secretField]: null, secret_already_delivered: true });
      expect(await everythingStored()).not.toContain(secret);
    },
  );

  it("Given a webhook secret rotated with a key, When the request is repeated, Then the replay withholds the new secret", async () => {
    const created = await post("/v1/webhooks", "webhook-2", {
      url: "http://127.0.0.1:9/hooks",
      events: ["transfer.confirmed"],
    });
    const path = `/v1/webhooks/${created.body.webhook_id}/rotate-secret`;
    const first = await post(path, "rotate-1", {});
    expect(first.status).toBe(200);
    const secret = first.body.secret as string;
    expect(secret).toMatch(/^whsec_/);

    const replay = await post(path, "rotate-1", {});
    expect(replay.replayed).toBe("true");
    expect(replay.status).toBe(200);
    expect(JSON.stringify(replay.body)).not.toContain(secret);
    expect(replay.body).toMatchObject({ secret: null, secret_already_delivered: true });
    expect(await everythingStored()).not.toContain(secret);
  });

  it("Given a transfer made with a key, When its stored fingerprint is read, Then the amount cannot be found from it offline", async () => {
    const body = { to: "@bob", amount: "0.000317" };
    const sent = await post("/v1/transfers", "pay-small", body);
    expect(sent.status).toBe(201);
    const { db } = given.world.service.context;
    const rows = await db.read((q) => q.select().from(db.tables.idempotencyKeys));
    const stored = rows.find((row) => row.key === "pay-small")?.requestHash;
    expect(stored).toBeDefined();

    // An attacker with the table knows the route and the body's shape; only the amount is unknown.
    // Every amount up to 0.001 USDG (1,000 base units), in the forms a client would write it.
    const found: string[] = [];
    for (let units = 1; units <= 1_000; units++) {
      const decimal = (units / 1_000_000).toFixed(6);
      for (const amount of [decimal, decimal.replace(/0+$/, "")]) {
        for (const path of ["/v1/transfers", "/v1/transfers/"]) {
          const candidate = `post ${path}\n{"amount":${JSON.stringify(amount)},"to":"@bob"}`;
          if (createHash("sha256").update(candidate).digest("hex") === stored) found.push(amount);
        }
      }
    }
    expect(found, "the amount was recovered from idempotency_keys.request_hash").toEqual([]);
  });
});
