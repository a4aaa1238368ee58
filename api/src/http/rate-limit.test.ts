import type { Response } from "express";
import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { createRateLimiter } from "./rate-limit";

function fakeResponse() {
  const headers: Record<string, string> = {};
  return {
    headers,
    response: { setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as Response,
  };
}

describe("per-key rate limits", () => {
  it("allow the limit per minute, then refuse with 429 and Retry-After, per key", () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(3, () => now);
    const { headers, response } = fakeResponse();
    for (let i = 0; i < 3; i++) limiter.take("key_a", response);
    expect(headers["RateLimit-Remaining"]).toBe("0");
    let refused: unknown;
    try {
      limiter.take("key_a", response);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(429);
    expect((refused as ApiError).headers?.["Retry-After"]).toBe("60");
    limiter.take("key_b", response);
    expect(headers["RateLimit-Remaining"]).toBe("2");
    now += 60_000;
    limiter.take("key_a", response);
    expect(headers["RateLimit-Limit"]).toBe("3");
    expect(headers["RateLimit-Remaining"]).toBe("2");
  });
});
