import { type Database, openDatabase } from "@cpay/ledger/database";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAuthFailureLimiter } from "./auth-failure-limit";
import { refusalOf } from "./refusal.test-support";

describe("failed authentications per client address", () => {
  let db: Database;
  beforeEach(async () => {
    db = await openDatabase(":memory:");
  });
  afterEach(async () => {
    await db.close();
  });

  it("Given an address with the limit's failures, Then it is refused with Retry-After until its minute ends, while another address is not", async () => {
    let now = 1_000_000;
    const limiter = createAuthFailureLimiter(db, 2, () => now);
    await limiter.check("10.0.0.1");
    await limiter.fail("10.0.0.1");
    await limiter.check("10.0.0.1");
    await limiter.fail("10.0.0.1");
    now += 15_000;
    const refused = await refusalOf(() => limiter.check("10.0.0.1"));
    expect(refused?.status).toBe(429);
    expect(refused?.code).toBe("rate_limited");
    expect(refused?.headers?.["Retry-After"]).toBe("45");
    expect(await refusalOf(() => limiter.check("10.0.0.2"))).toBeNull();
    now += 45_000;
    expect(await refusalOf(() => limiter.check("10.0.0.1"))).toBeNull();
  });

  it("Given failures counted by two limiters on one database, Then either refuses the address", async () => {
    const now = 5_000_000;
    const first = createAuthFailureLimiter(db, 2, () => now);
    const second = createAuthFailureLimiter(db, 2, () => now);
    await first.fail("10.0.0.9");
    expect(await refusalOf(() => second.check("10.0.0.9"))).toBeNull();
    await second.fail("10.0.0.9");
    expect((await refusalOf(() => first.check("10.0.0.9")))?.status).toBe(429);
  });
});
