import { useMemoryDatabase } from "@cpay/ledger/testing";
import { describe, expect, it } from "vitest";
import { ApiError } from "../core/api-error";
import { createAuthFailureLimiter } from "./auth-failure-limit";

const unknownKey = () => new ApiError("unauthorized", "unknown or revoked API key", "authorization");

describe("failed authentications per client address", () => {
  const db = useMemoryDatabase();

  it("Given an address with the limit's failures, Then its next failure is 429 with Retry-After until its minute ends, while another address keeps its own refusal", async () => {
    let now = 1_000_000;
    const limiter = createAuthFailureLimiter(db(), 2, () => now);
    const refusal = unknownKey();
    expect(await limiter.refusalOf("10.0.0.1", refusal)).toBe(refusal);
    expect(await limiter.refusalOf("10.0.0.1", refusal)).toBe(refusal);
    now += 15_000;
    const limited = await limiter.refusalOf("10.0.0.1", refusal);
    expect(limited.status).toBe(429);
    expect(limited.code).toBe("rate_limited");
    expect(limited.headers?.["Retry-After"]).toBe("45");
    expect(await limiter.refusalOf("10.0.0.2", refusal)).toBe(refusal);
    now += 45_000;
    expect(await limiter.refusalOf("10.0.0.1", refusal)).toBe(refusal);
  });

  it("Given failures counted by two limiters on one database, Then either answers 429 for the address", async () => {
    const now = 5_000_000;
    const first = createAuthFailureLimiter(db(), 2, () => now);
    const second = createAuthFailureLimiter(db(), 2, () => now);
    await first.refusalOf("10.0.0.9", unknownKey());
    await second.refusalOf("10.0.0.9", unknownKey());
    expect((await first.refusalOf("10.0.0.9", unknownKey())).status).toBe(429);
    expect((await second.refusalOf("10.0.0.9", unknownKey())).status).toBe(429);
  });
});
