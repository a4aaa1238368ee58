/**
 * Per-key rate limits over HTTP: every authenticated answer carries `RateLimit-*`; past the limit
 * the key gets `429 rate_limited` with `Retry-After` in the error envelope, while another key of
 * the same service is unaffected.
 */
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";

describe("rate limits", () => {
  const given = apiSuite({ world: { env: { RATE_LIMIT_PER_MINUTE: "3" } } });

  it("counts per key and refuses the request over the limit with 429", async () => {
    const alice = await given.world.account("alice");
    const bob = await given.world.account("bob");
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await given.world.fetch("/v1/accounts/me", { key: alice.key.value });
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe("3");
      remaining.push(response.headers.get("ratelimit-remaining"));
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const refused = await given.world.fetch("/v1/accounts/me", { key: alice.key.value });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await refused.json()) as { error: { code: string; request_id: string } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.request_id).toBe(refused.headers.get("request-id"));
    expect((await given.world.fetch("/v1/accounts/me", { key: bob.key.value })).status).toBe(200);
  });
});
