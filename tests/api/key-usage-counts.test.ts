/**
 * An API key's usage (`request_count`, `last_used_at`) counts the requests the service carried out
 * for it: those answered 2xx (an Idempotency-Key replay of a success included). A request refused
 * for any reason — by authentication, the rate limit, the route's audience, validation, or its use
 * case — counts nothing, so the count is what the key got done.
 */
import { randomBytes } from "node:crypto";
import { issueApiKey } from "@cpay/api";
import { flushUsage } from "@cpay/api/usage-stamps";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";

describe("API key usage", () => {
  const given = apiSuite({ world: { env: { WEBHOOKS_ALLOW_LOCAL: "1" } }, accounts: ["alice"] });

  async function usageOf(keyId: string) {
    const { db } = given.world.service.context;
    await flushUsage(db);
    const [row] = await db.read((q) =>
      q.select().from(db.tables.apiKeys).where(eq(db.tables.apiKeys.id, keyId)),
    );
    return { requestCount: row?.requestCount, lastUsedAt: row?.lastUsedAt ?? null };
  }

  it("Given a new key, When it makes 4 requests that succeed and 8 that are refused, Then its request count is 4", async () => {
    const { id: keyId, value: key } = await issueApiKey(given.world.service.context, {
      accountId: given.alice.account.id,
      name: "counted",
      environment: "test",
    });
    expect(await usageOf(keyId)).toEqual({ requestCount: 0, lastUsedAt: null });
    const send = (path: string, init: RequestInit = {}) => given.world.fetch(path, { ...init, key });
    const json = { "content-type": "application/json" };
    const idempotencyKey = randomBytes(8).toString("hex");
    const webhook = {
      method: "POST",
      headers: { ...json, "idempotency-key": idempotencyKey },
      body: JSON.stringify({ url: "http://127.0.0.1:9/hooks", events: ["transfer.confirmed"] }),
    };

    const succeeded = [
      await send("/v1/accounts/me"),
      await send("/v1/transfers?limit=5"),
      await send("/v1/webhooks", webhook),
      await send("/v1/webhooks", webhook), // an Idempotency-Key replay of the success
    ];
    const refused = [
      await send("/v1/keys"), // 403 session_required (the route's audience)
      await send("/v1/relay"), // 403 agent_key_required
      await send("/v1/transfers?limit=abc"), // 400 a bad query
      await send("/v1/transfers", { method: "POST", headers: json, body: "{}" }), // 400 a bad body
      await send("/v1/transfers/not-an-id"), // 404 a path id of the wrong shape
      await send(`/v1/transfers/tr_${"a".repeat(26)}`), // 404 from the use case: no such transfer
      await send("/v1/transfers", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ to: "@nobody", amount: "1" }),
      }), // 404 recipient_not_found
      await send("/v1/webhooks", {
        ...webhook,
        body: JSON.stringify({ url: "http://127.0.0.1:9/other", events: ["transfer.confirmed"] }),
      }), // 409 idempotency_key_reused
    ];

    for (const response of succeeded)
      expect(response.status, await response.clone().text()).toBeLessThan(300);
    for (const response of refused) expect(response.status, response.url).toBeGreaterThanOrEqual(400);
    const usage = await usageOf(keyId);
    expect(usage.requestCount).toBe(succeeded.length);
    expect(usage.lastUsedAt).toEqual(expect.any(String));
  });
});
