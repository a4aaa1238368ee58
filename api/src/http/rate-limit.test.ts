import { useMemoryDatabase } from "@cpay/ledger/testing";
import type { Response } from "express";
import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit";
import { refusalOf } from "./refusal.test-support";

function fakeResponse() {
  const headers: Record<string, string> = {};
  return {
    headers,
    response: { setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as Response,
  };
}

describe("per-key rate limits", () => {
  const db = useMemoryDatabase();

  it("allow the limit per minute, then refuse with 429 and Retry-After, per key", async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(db(), 3, { now: () => now });
    const { headers, response } = fakeResponse();
    for (let i = 0; i < 3; i++) await limiter.take("key_a", response);
    expect(headers["RateLimit-Remaining"]).toBe("0");
    const refused = await refusalOf(() => limiter.take("key_a", response));
    expect(refused?.status).toBe(429);
    expect(refused?.headers?.["Retry-After"]).toBe("60");
    await limiter.take("key_b", response);
    expect(headers["RateLimit-Remaining"]).toBe("2");
    now += 60_000;
    await limiter.take("key_a", response);
    expect(headers["RateLimit-Limit"]).toBe("3");
    expect(headers["RateLimit-Remaining"]).toBe("2");
  });

  it("Given two limiters on one database, Then they spend one budget with exact headers", async () => {
    let now = 2_000_000;
    const first = createRateLimiter(db(), 4, { now: () => now });
    const second = createRateLimiter(db(), 4, { now: () => now });
    const { headers, response } = fakeResponse();
    await first.take("key_a", response);
    await second.take("key_a", response);
    now += 20_000;
    await first.take("key_a", response);
    expect(headers["RateLimit-Remaining"]).toBe("1");
    expect(headers["RateLimit-Reset"]).toBe("40");
    await second.take("key_a", response);
    expect(headers["RateLimit-Remaining"]).toBe("0");
    const refused = await refusalOf(() => first.take("key_a", response));
    expect(refused?.code).toBe("rate_limited");
    expect(refused?.headers?.["Retry-After"]).toBe("40");
  });

  it("Given namespaces, Then the same id counts separately in each", async () => {
    const now = 3_000_000;
    const keys = createRateLimiter(db(), 1, { now: () => now });
    const relay = createRateLimiter(db(), 1, { namespace: "relay", now: () => now });
    const { response } = fakeResponse();
    await keys.take("acct_1", response);
    expect(await refusalOf(() => relay.take("acct_1", response))).toBeNull();
    expect((await refusalOf(() => keys.take("acct_1", response)))?.status).toBe(429);
  });
});
