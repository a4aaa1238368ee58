/**
 * fast-check fuzzing of every `/v1` route: arbitrary and near-valid bodies, query strings, path
 * ids and headers. Whatever arrives, the answer is a 4xx (or a success) in the error envelope with
 * a Request-Id — never a 5xx — and a refused request writes nothing (row counts of every table that
 * holds money or accounts are unchanged).
 */
import { API_ROUTES, type RouteContract } from "@cpay/sdk/api";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";

const ROUTE_IDS = Object.keys(API_ROUTES) as (keyof typeof API_ROUTES)[];
const GUARDED_TABLES = ["accounts", "vaultSecrets", "transfers", "holds", "events"] as const;

/** A string that may be a valid id, almost one, or junk (incl. traversal and unicode). */
const pathSegment = fc.oneof(
  fc
    .constantFrom("tr_", "acct_", "tx_", "policy_")
    .chain((prefix) => fc.stringMatching(/^[a-z2-7]{20,30}$/).map((tail) => prefix + tail)),
  fc.string({ maxLength: 40 }),
  fc.constantFrom("..", "%2e%2e", "null", "undefined", "0", "-1", "tr_%00", "💸", " "),
);

const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      to: fc.oneof(
        fc.string(),
        fc.constantFrom("@bob", "@nobody", "@bob/agent", "11111111111111111111111111111111"),
        fc.integer(),
      ),
      amount: fc.oneof(
        fc.constantFrom(
          "1",
          "0",
          "-1",
          "1.0000001",
          "1e3",
          "0x10",
          "99999999999999999999",
          " 1",
          "1.",
          ".5",
          "",
        ),
        fc.double(),
        fc.string(),
      ),
      asset: fc.oneof(fc.constantFrom("USDG", "usdg", "SOL", ""), fc.string(), fc.constant(null)),
      confidential: fc.oneof(fc.boolean(), fc.constantFrom("true", 0, null)),
      memo: fc.oneof(fc.string({ maxLength: 300 }), fc.integer()),
      name: fc.oneof(fc.string({ maxLength: 80 }), fc.constant("agent")),
      spend_policy: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.record(
          {
            daily_limit_usdg: fc.oneof(fc.double(), fc.string(), fc.constant(-1)),
            per_transaction_limit_usdg: fc.oneof(fc.double(), fc.string()),
            hitl_threshold_usdg: fc.oneof(fc.double(), fc.string()),
            assets: fc.oneof(fc.array(fc.string()), fc.string()),
            active_hours: fc.string(),
            allowed_recipients: fc.array(fc.string()),
          },
          { requiredKeys: [] },
        ),
      ),
      decryption_proof: fc.oneof(fc.base64String({ maxLength: 300 }), fc.string()),
    },
    { requiredKeys: [] },
  ),
);

const query = fc.dictionary(
  fc.oneof(fc.constantFrom("limit", "offset", "status", "from", "to"), fc.string({ maxLength: 10 })),
  fc.oneof(
    fc.constantFrom("0", "1", "100", "101", "-1", "abc", "confirmed", "2026-01-01T00:00:00.000Z"),
    fc.string(),
  ),
  { maxKeys: 4 },
);

describe("fuzzed requests to every route", () => {
  // Funded, so the near-valid transfers the fuzzer makes also reach the chain and succeed.
  const given = apiSuite({
    accounts: ["alice", "bob"],
    funds: { alice: { confidential: usdg(5), public: usdg(5) } },
  });

  async function rowCounts(): Promise<Record<string, number>> {
    const { db } = given.world.service.context;
    const counts: Record<string, number> = {};
    for (const name of GUARDED_TABLES) {
      const table = db.tables[name];
      const [row] = await db.read((q) => q.select({ n: sql<number>`count(*)` }).from(table));
      counts[name] = Number(row?.n);
    }
    return counts;
  }

  it("never answers 5xx and never writes on refusal", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTE_IDS),
        fc.array(pathSegment, { minLength: 1, maxLength: 1 }),
        query,
        fc.oneof(jsonish, fc.constant(undefined), fc.string({ maxLength: 50 })),
        fc.record(
          {
            auth: fc.oneof(fc.constant("valid"), fc.constant("none"), fc.string({ maxLength: 60 })),
            idempotencyKey: fc.oneof(fc.string({ maxLength: 300 }), fc.constant(undefined)),
            contentType: fc.constantFrom(
              "application/json",
              "text/plain",
              "application/json; charset=latin1",
              undefined,
            ),
            rawBody: fc.boolean(),
          },
          { requiredKeys: ["auth", "rawBody"] },
        ),
        async (routeId, [segment], params, body, headers) => {
          const route: RouteContract = API_ROUTES[routeId];
          const path = route.path.replace(/:([a-z_]+)/g, () => encodeURIComponent(segment as string));
          const search = new URLSearchParams(params).toString();
          const requestHeaders: Record<string, string> = {};
          if (headers.auth === "valid") requestHeaders.authorization = `Bearer ${given.alice.key.value}`;
          else if (headers.auth !== "none") requestHeaders.authorization = headers.auth;
          if (headers.idempotencyKey !== undefined)
            requestHeaders["idempotency-key"] = headers.idempotencyKey;
          if (headers.contentType !== undefined) requestHeaders["content-type"] = headers.contentType;
          const before = await rowCounts();
          let response: Response;
          try {
            response = await given.world.fetch(`${path}${search === "" ? "" : `?${search}`}`, {
              method: route.method.toUpperCase(),
              headers: requestHeaders,
              ...(body === undefined || (route.method === "get" && !headers.rawBody)
                ? {}
                : { body: typeof body === "string" && headers.rawBody ? body : JSON.stringify(body) }),
            });
          } catch (error) {
            // Headers fetch itself refuses to send (e.g. non-ByteString values) never reach the server.
            if (error instanceof TypeError) return;
            throw error;
          }
          const text = await response.text();
          expect(response.status, `${route.method} ${path} -> ${text}`).toBeLessThan(500);
          expect(response.headers.get("request-id")).toMatch(/^req_/);
          if (response.status >= 400) {
            const parsed = JSON.parse(text) as { error?: { code?: string; request_id?: string } };
            expect(parsed.error?.code).toEqual(expect.any(String));
            expect(parsed.error?.request_id).toBe(response.headers.get("request-id"));
            expect(await rowCounts()).toEqual(before);
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
    );
  });

  it("given well-formed requests with adversarial values, succeeds or refuses cleanly, never 5xx", async () => {
    const agent = await given.alice.client.call("createAgent", {
      body: {
        name: "fuzzed",
        spend_policy: {
          daily_limit_usdg: 10,
          per_transaction_limit_usdg: 5,
          hitl_threshold_usdg: 2,
          assets: ["USDG"],
        },
      },
    });
    const bob = await given.world.accountRow((await given.world.account("bobby")).account.id);
    // Mostly valid values, so requests get past validation to the chain; some of everything else.
    const mostly = <T>(valid: fc.Arbitrary<T>, other: fc.Arbitrary<T>) =>
      fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: other });
    const amount = mostly(
      fc.constantFrom("0.000001", "1", "4.999999", "0.5"),
      fc.constantFrom("0", "-1", "1.0000001", "5", "6", "99999999999999999999"),
    );
    const limit = mostly<number | string>(
      fc.constantFrom(0, 1, 2.5, 10, "3"),
      fc.oneof(fc.constantFrom(-1, 1e30, "0.0000001", "abc"), fc.double()),
    );
    const policy = fc.record(
      {
        daily_limit_usdg: limit,
        per_transaction_limit_usdg: limit,
        hitl_threshold_usdg: limit,
        assets: mostly<string[]>(
          fc.constantFrom(["USDG"], ["usdg"]),
          fc.constantFrom([], ["SOL"], ["USDG", "USDG"]),
        ),
        allowed_recipients: fc.constantFrom([], ["bob"], ["*.shop"], ["*."], ["@@"], [bob.publicKey]),
        active_hours: mostly(
          fc.constantFrom("00:00-00:00", "22:00-06:00"),
          fc.constantFrom("24:00-01:00", "9-5"),
        ),
        approval_window_seconds: mostly(fc.constantFrom(60, 86_400), fc.constantFrom(0, 604_801, 1.5)),
      },
      { requiredKeys: [] },
    );
    const request = fc.oneof(
      fc.record({
        route: fc.constant("createTransfer" as const),
        body: fc.record(
          {
            to: fc.constantFrom(
              "@bobby",
              "@nobody",
              "@alice",
              "@alice/fuzzed",
              bob.publicKey,
              "not-an-address",
            ),
            amount,
            confidential: fc.boolean(),
            memo: fc.string({ maxLength: 220 }),
            asset: mostly(fc.constantFrom("USDG", "usdg"), fc.constant("SOL")),
          },
          { requiredKeys: ["to", "amount"] },
        ),
      }),
      fc.record({
        route: fc.constant("createAgent" as const),
        body: fc.record({ name: fc.stringMatching(/^[a-z0-9-]{1,12}$/), spend_policy: policy }),
      }),
      fc.record({ route: fc.constant("updateSpendPolicy" as const), body: policy }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ route, body }) => {
        const path =
          route === "createTransfer"
            ? "/v1/transfers"
            : route === "createAgent"
              ? "/v1/accounts/me/agents"
              : `/v1/agents/${agent.account_id}/spend-policy`;
        const response = await given.world.fetch(path, {
          method: route === "updateSpendPolicy" ? "PATCH" : "POST",
          key: given.alice.key.value,
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        const text = await response.text();
        expect(response.status, `${route} ${JSON.stringify(body)} -> ${text}`).toBeLessThan(500);
      }),
      { numRuns: Number(process.env.FUZZ_VALUE_RUNS ?? 150) },
    );
  });
});
