/**
 * fast-check fuzzing of every `/v1` route: arbitrary and near-valid bodies, query strings, path
 * ids and headers. Whatever arrives, the answer is a 4xx (or a success) in the error envelope with
 * a Request-Id — never a 5xx — and a refused request writes nothing (row counts of every table that
 * holds money or accounts are unchanged).
 */
import { API_ROUTES, type RouteContract } from "@cpay/sdk/api";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiWorld, startApiWorld, type WorldAccount } from "../support/api-world";

const ROUTE_IDS = Object.keys(API_ROUTES) as (keyof typeof API_ROUTES)[];
const GUARDED_TABLES = ["accounts", "vaultSecrets", "transfers", "agentTransactions", "events"] as const;

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
  let world: ApiWorld;
  let alice: WorldAccount;
  beforeAll(async () => {
    world = await startApiWorld();
    alice = await world.account("alice");
    await world.account("bob");
  });
  afterAll(async () => {
    await world?.close();
  });

  async function rowCounts(): Promise<Record<string, number>> {
    const { db } = world.service.context;
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
          if (headers.auth === "valid") requestHeaders.authorization = `Bearer ${alice.key.value}`;
          else if (headers.auth !== "none") requestHeaders.authorization = headers.auth;
          if (headers.idempotencyKey !== undefined)
            requestHeaders["idempotency-key"] = headers.idempotencyKey;
          if (headers.contentType !== undefined) requestHeaders["content-type"] = headers.contentType;
          const before = await rowCounts();
          let response: Response;
          try {
            response = await world.fetch(`${path}${search === "" ? "" : `?${search}`}`, {
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
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });
});
