/**
 * Failed authentications are limited per client address: past the limit, requests from that
 * address get `429 rate_limited` with `Retry-After` before any key is looked up, so a stream of
 * made-up keys stops costing a database query each. (All test clients share 127.0.0.1.)
 */
import { randomBytes } from "node:crypto";
import type { Database } from "@cpay/ledger/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiWorld, startApiWorld } from "../support/api-world";

const LIMIT = 5;

/** Counts the database reads made from the API key lookup (its frame is on the calling stack). */
function countKeyLookups(db: Database): { readonly count: number } {
  const counter = { count: 0 };
  const read = db.read.bind(db);
  (db as { read: Database["read"] }).read = ((work: Parameters<Database["read"]>[0]) => {
    if (new Error().stack?.includes("key-lookup")) counter.count += 1;
    return read(work);
  }) as Database["read"];
  return counter;
}

/** A well-formed test key no account has. */
const bogusKey = () => `svc_test_${randomBytes(32).toString("base64url")}`;

describe("failed authentications per client address", () => {
  let world: ApiWorld;
  beforeAll(async () => {
    world = await startApiWorld({ env: { AUTH_FAILURE_LIMIT_PER_MINUTE: String(LIMIT) } });
  });
  afterAll(async () => {
    await world?.close();
  });

  it("Given one address sending made-up keys, When it passes the limit, Then it gets 429 with Retry-After and no more key lookups reach the database", async () => {
    // Given one made-up key refused (its lookup prepares the statement), then a lookup counter
    expect((await world.fetch("/v1/accounts/me", { key: bogusKey() })).status).toBe(401);
    const lookups = countKeyLookups(world.service.context.db);

    // When the address sends the rest of the limit's worth, each is a 401 looked up once
    for (let i = 1; i < LIMIT; i++) {
      const response = await world.fetch("/v1/accounts/me", { key: bogusKey() });
      expect(response.status).toBe(401);
    }
    expect(lookups.count).toBe(LIMIT - 1);

    // Then every further request from it is 429 rate_limited with Retry-After, and looks nothing up
    for (let i = 0; i < 20; i++) {
      const refused = await world.fetch("/v1/accounts/me", { key: bogusKey() });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      const body = (await refused.json()) as { error: { code: string } };
      expect(body.error.code).toBe("rate_limited");
    }
    expect(lookups.count).toBe(LIMIT - 1);
  });
});
