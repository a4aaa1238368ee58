/**
 * The authorisation matrix over every `/v1` route (spec section 5, DESIGN section 7): no key,
 * malformed key, unknown key, revoked key -> 401 `unauthorized`; a live key while mainnet-beta is
 * not configured -> 403 `live_mode_unavailable`; an agent's key on owner-only routes -> 403
 * `agent_key_not_allowed`; any key on a dashboard-session route -> 403 `session_required` (the
 * public sign-in routes take no credential and are left out); another account's key on a resource -> the spec's 403 where it names one
 * (`not_agent_owner`), else 404 (existence is never revealed). Every refusal is in the error
 * envelope with the Request-Id and changes nothing.
 */
import { issueApiKey, revokeApiKey } from "@cpay/api";
import { API_ROUTES, type ApiRouteId, type RouteContract } from "@cpay/sdk/api";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";

/** Every route that takes a credential (the dashboard's public sign-in steps take none). */
const ROUTE_IDS = (Object.keys(API_ROUTES) as ApiRouteId[]).filter(
  (id) => (API_ROUTES[id] as RouteContract).audience !== "public",
);

describe("the authorisation matrix", () => {
  /** Real resource ids of `owner`, by path parameter name. */
  const ids: Record<string, string> = {};
  const given = apiSuite({
    world: { env: { WEBHOOKS_ALLOW_LOCAL: "1" } },
    accounts: ["owner", "stranger", "payee"],
    funds: { owner: { confidential: usdg(100), public: usdg(100) } },
    setUp: async ({ world, owner }) => {
      const agent = await owner.client.call("createAgent", {
        body: {
          name: "bot",
          spend_policy: {
            daily_limit_usdg: 100,
            per_transaction_limit_usdg: 50,
            hitl_threshold_usdg: 5,
            assets: ["USDG"],
          },
        },
      });
      ids.account_id = agent.account_id;
      const agentKey = await world.keyFor(agent.account_id);
      await world.fund(await world.accountRow(agent.account_id), { public: usdg(20) });
      const transfer = await owner.client.call("createTransfer", {
        body: { to: "@payee", amount: "1", confidential: false },
      });
      ids.transfer_id = transfer.transfer_id;
      const held = await world.clientFor(agentKey).call("createTransfer", {
        body: { to: "@payee", amount: "10", confidential: false },
      });
      ids.transaction_id = held.approval?.transaction_id as string;
      const webhook = await owner.client.call("createWebhook", {
        body: { url: "http://127.0.0.1:9/hooks", events: ["transfer.initiated"] },
      });
      ids.webhook_id = webhook.webhook_id;
      const { db } = world.service.context;
      const [event] = await db.read((q) =>
        q.select().from(db.tables.events).where(eq(db.tables.events.accountId, owner.account.id)),
      );
      ids.event_id = event?.id as string;
      const revoked = await issueApiKey(world.service.context, {
        accountId: owner.account.id,
        name: "old",
        environment: "test",
      });
      await revokeApiKey(world.service.context, revoked.id);
      const live = await issueApiKey(world.service.context, {
        accountId: owner.account.id,
        name: "live",
        environment: "live",
      });
      return { agentKey, revokedKey: revoked.value, liveKey: live.value };
    },
  });

  function pathOf(route: RouteContract): string {
    return route.path.replace(/:([a-z_]+)/g, (_, name: string) => ids[name] as string);
  }

  async function call(routeId: ApiRouteId, authorization: string | null) {
    const route: RouteContract = API_ROUTES[routeId];
    const headers: Record<string, string> = {};
    if (authorization !== null) headers.authorization = authorization;
    if (route.method !== "get") headers["content-type"] = "application/json";
    const response = await given.world.fetch(pathOf(route), {
      method: route.method.toUpperCase(),
      headers,
      ...(route.method === "get" ? {} : { body: "{}" }),
    });
    const body = (await response.json()) as { error?: { code: string; request_id: string } };
    return { status: response.status, body, requestId: response.headers.get("request-id") };
  }

  it("has a real resource for every path parameter", () => {
    expect(ids.transfer_id).toMatch(/^tr_/);
    expect(ids.account_id).toMatch(/^acct_/);
    expect(ids.transaction_id).toMatch(/^tx_/);
    expect(ids.webhook_id).toMatch(/^wh_/);
    expect(ids.event_id).toMatch(/^evt_/);
  });

  const unauthorized: [string, (k: { revoked: string }) => string | null][] = [
    ["no Authorization header", () => null],
    ["an empty header", () => ""],
    ["a non-Bearer scheme", () => "Basic dXNlcjpwYXNz"],
    ["a malformed key", () => "Bearer svc_test_short"],
    ["a key of another service", () => "Bearer sk_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH"],
    ["an unknown well-formed key", () => `Bearer svc_test_${"A".repeat(43)}`],
    ["a revoked key", (k) => `Bearer ${k.revoked}`],
  ];
  for (const [what, header] of unauthorized) {
    it.each(ROUTE_IDS)(`refuses ${what} on %s with 401 unauthorized`, async (routeId) => {
      const answer = await call(routeId, header({ revoked: given.revokedKey }));
      expect(answer.status).toBe(401);
      expect(answer.body.error?.code).toBe("unauthorized");
      expect(answer.body.error?.request_id).toBe(answer.requestId);
    });
  }

  it.each(ROUTE_IDS)("refuses a live key on %s while mainnet-beta is not configured", async (routeId) => {
    const answer = await call(routeId, `Bearer ${given.liveKey}`);
    expect(answer.status).toBe(403);
    expect(answer.body.error?.code).toBe("live_mode_unavailable");
  });

  const ownerOnly = ROUTE_IDS.filter((id) => (API_ROUTES[id] as RouteContract).audience === "owner");
  it.each(ownerOnly)("refuses an agent's key on the owner-only route %s with 403", async (routeId) => {
    const answer = await call(routeId, `Bearer ${given.agentKey}`);
    expect(answer.status).toBe(403);
    expect(answer.body.error?.code).toBe("agent_key_not_allowed");
  });

  const sessionOnly = ROUTE_IDS.filter((id) => (API_ROUTES[id] as RouteContract).audience === "session");
  it.each(sessionOnly)(
    "refuses owner and agent keys on the session route %s with 403 session_required",
    async (routeId) => {
      for (const key of [given.owner.key.value, given.agentKey]) {
        const answer = await call(routeId, `Bearer ${key}`);
        expect(answer.status).toBe(403);
        expect(answer.body.error?.code).toBe("session_required");
      }
    },
  );

  it("shows another account's resources to no one else", async () => {
    const other = `Bearer ${given.stranger.key.value}`;
    expect((await call("getTransfer", other)).body.error?.code).toBe("transfer_not_found");
    expect((await call("getSpendPolicy", other)).body.error?.code).toBe("not_agent_owner");
    expect((await call("updateSpendPolicy", other)).status).toBe(403);
    expect((await call("getAgentBudget", other)).body.error?.code).toBe("not_agent_owner");
    expect((await call("getAgentTransaction", other)).body.error?.code).toBe("transaction_not_found");
    expect((await call("approveTransaction", other)).body.error?.code).toBe("transaction_not_found");
    expect((await call("rejectTransaction", other)).body.error?.code).toBe("transaction_not_found");
    for (const route of ["deleteWebhook", "rotateWebhookSecret", "replayEvent", "listDeliveries"] as const) {
      expect((await call(route, other)).body.error?.code).toBe("webhook_not_found");
    }
    expect((await given.stranger.client.call("listWebhooks")).webhooks).toEqual([]);
    expect((await given.stranger.client.call("listTransfers")).transfers).toEqual([]);
    expect((await given.stranger.client.call("listAgents")).agents).toEqual([]);
    expect((await given.stranger.client.call("listPendingApprovals")).pending).toEqual([]);
    // ... while the owner still sees them, unchanged.
    expect(
      (await given.owner.client.call("getTransfer", { params: { transfer_id: ids.transfer_id as string } }))
        .transfer_id,
    ).toBe(ids.transfer_id);
    expect(
      (await given.owner.client.call("listPendingApprovals")).pending.map((p) => p.transaction_id),
    ).toEqual([ids.transaction_id]);
  });
});
