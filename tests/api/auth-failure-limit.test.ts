/**
 * Failed authentications are limited per client address, and the limit refuses only failing
 * credentials: past it, a made-up key (or none) from that address gets `429 rate_limited` with
 * `Retry-After` instead of its `401`, while a valid key from the same address is served as ever —
 * behind a proxy every client shares one address, and one client's failures must not lock the
 * others out. The address is the socket's peer unless `TRUST_PROXY` names the proxies in front,
 * then the client that `X-Forwarded-For` names. (Every test client is 127.0.0.1.) The service's
 * clock is frozen, moved only by the suite, so a one-minute window never ends mid-test however
 * slow the machine is.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";

/** The documented default of AUTH_FAILURE_LIMIT_PER_MINUTE (the suites' worlds raise it; this one sets it back). */
const DEFAULT_LIMIT = 60;

/** A well-formed test key no account has. */
const bogusKey = () => `svc_test_${randomBytes(32).toString("base64url")}`;

async function codeOf(response: Response): Promise<string | undefined> {
  return ((await response.json()) as { error?: { code: string } }).error?.code;
}

describe("failed authentications per client address", () => {
  let now = Date.parse("2030-01-01T00:00:00Z");
  const given = apiSuite({
    world: { clock: () => now, env: { AUTH_FAILURE_LIMIT_PER_MINUTE: String(DEFAULT_LIMIT) } },
    accounts: ["alice"],
  });

  it("Given 60 failed authentications from one address, Then its next failing request is 429 with Retry-After, yet a valid key from the same address still gets 200", async () => {
    // Given the default limit's worth of made-up keys, each a 401
    for (let i = 0; i < DEFAULT_LIMIT; i++) {
      const response = await given.world.fetch("/v1/accounts/me", { key: bogusKey() });
      expect(response.status, `failure ${i + 1}`).toBe(401);
      expect(await codeOf(response)).toBe("unauthorized");
    }

    // Then failing credentials (a made-up key, a malformed one, none) are 429 with Retry-After
    for (const init of [{ key: bogusKey() }, { key: "svc_test_short" }, {}]) {
      const refused = await given.world.fetch("/v1/accounts/me", init);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBe(60);
      expect(await codeOf(refused)).toBe("rate_limited");
    }

    // ... and a valid key from the same address is served
    for (let i = 0; i < 3; i++) {
      const me = await given.world.fetch("/v1/accounts/me", { key: given.alice.key.value });
      expect(me.status).toBe(200);
    }
    // (a POST reaches its validation: the body names no recipient)
    const posted = await given.world.fetch("/v1/transfers", {
      method: "POST",
      key: given.alice.key.value,
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(posted.status).toBe(400);
    expect(await codeOf(posted)).toBe("invalid_request");

    // Until its minute ends: then failures are 401 again
    now += 59_000;
    expect((await given.world.fetch("/v1/accounts/me", { key: bogusKey() })).status).toBe(429);
    now += 1_000;
    expect((await given.world.fetch("/v1/accounts/me", { key: bogusKey() })).status).toBe(401);
  });

  it("ignores X-Forwarded-For while TRUST_PROXY is unset: a client cannot pick its own address", async () => {
    now += 120_000;
    for (let i = 0; i < DEFAULT_LIMIT; i++) {
      const forwarded = { "x-forwarded-for": `198.51.100.${i + 1}` };
      expect(
        (await given.world.fetch("/v1/accounts/me", { key: bogusKey(), headers: forwarded })).status,
      ).toBe(401);
    }
    const refused = await given.world.fetch("/v1/accounts/me", {
      key: bogusKey(),
      headers: { "x-forwarded-for": "198.51.100.200" },
    });
    expect(refused.status).toBe(429);
  });
});

describe("failed authentications per client address behind a trusted proxy (TRUST_PROXY)", () => {
  const LIMIT = 3;
  const now = Date.parse("2030-01-01T00:00:00Z");
  const given = apiSuite({
    world: {
      clock: () => now,
      // The suite's requests come from 127.0.0.1: the proxy in front, as far as the service can tell.
      env: { TRUST_PROXY: "loopback", AUTH_FAILURE_LIMIT_PER_MINUTE: String(LIMIT) },
    },
    accounts: ["alice"],
  });

  it("counts each client the proxy names in X-Forwarded-For on its own, and serves a valid key from a limited one", async () => {
    const from = (client: string) => ({ "x-forwarded-for": client });
    for (let i = 0; i < LIMIT; i++) {
      const response = await given.world.fetch("/v1/accounts/me", {
        key: bogusKey(),
        headers: from("203.0.113.7"),
      });
      expect(response.status).toBe(401);
    }
    const limited = await given.world.fetch("/v1/accounts/me", {
      key: bogusKey(),
      headers: from("203.0.113.7"),
    });
    expect(limited.status).toBe(429);
    // Another client behind the same proxy keeps its own budget.
    const other = await given.world.fetch("/v1/accounts/me", {
      key: bogusKey(),
      headers: from("203.0.113.8"),
    });
    expect(other.status).toBe(401);
    // The limited client's valid key is served.
    const valid = await given.world.fetch("/v1/accounts/me", {
      key: given.alice.key.value,
      headers: from("203.0.113.7"),
    });
    expect(valid.status).toBe(200);
  });
});
