import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { createAuthFailureLimiter } from "./auth-failure-limit";

function refusalOf(run: () => void): ApiError | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

describe("failed authentications per client address", () => {
  it("Given an address with the limit's failures, Then it is refused with Retry-After until its minute ends, while another address is not", () => {
    let now = 1_000_000;
    const limiter = createAuthFailureLimiter(2, () => now);
    limiter.check("10.0.0.1");
    limiter.fail("10.0.0.1");
    limiter.check("10.0.0.1");
    limiter.fail("10.0.0.1");
    now += 15_000;
    const refused = refusalOf(() => limiter.check("10.0.0.1"));
    expect(refused?.status).toBe(429);
    expect(refused?.code).toBe("rate_limited");
    expect(refused?.headers?.["Retry-After"]).toBe("45");
    expect(refusalOf(() => limiter.check("10.0.0.2"))).toBeNull();
    now += 45_000;
    expect(refusalOf(() => limiter.check("10.0.0.1"))).toBeNull();
  });
});
