/**
 * ensureHeliusWebhook against Helius' REST API as helius-sdk calls it (the SDK hard-codes the Helius
 * host, so `fetch` is stubbed to play it): the first start creates the raw webhook for our receiver,
 * later starts update that same webhook (and re-enable it when Helius disabled it), and the API key
 * travels only in the query string to the Helius host.
 */
import { ensureHeliusWebhook } from "@cpay/indexer/helius";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const API_KEY = "3f2b9c1e-7d4a-4e8b-9a61-52c0d8e7f9a3";
const PROGRAM_ID = "8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf";
const WEBHOOK_URL = "https://indexer.cpay.example/helius/webhook";
const AUTH = "Bearer hx-6e1d0c2b9a8f47e3b5d4c3a2f1e0d9c8";
const HELIUS_WEBHOOKS = "https://api-mainnet.helius-rpc.com/v0/webhooks";

interface Call {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** A webhook as Helius lists it. */
function stored(overrides: Record<string, unknown> = {}) {
  return {
    webhookID: "5b1f0e4c-2a3d-4c8e-9f70-1a2b3c4d5e6f",
    wallet: "Wa11et1111111111111111111111111111111111111",
    webhookURL: WEBHOOK_URL,
    transactionTypes: ["ANY"],
    accountAddresses: ["OldProgram111111111111111111111111111111111"],
    webhookType: "raw",
    authHeader: "Bearer old",
    active: true,
    ...overrides,
  };
}

describe("ensureHeliusWebhook", () => {
  let calls: Call[];
  let webhooks: ReturnType<typeof stored>[];

  beforeEach(() => {
    calls = [];
    webhooks = [];
    // Helius' webhook API, as far as the SDK uses it: list, create, update, toggle.
    vi.stubGlobal("fetch", async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = String(input);
      const method = init.method ?? "GET";
      const body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
      calls.push({ method, url, headers: { ...(init.headers as Record<string, string>) }, body });
      const path = new URL(url).pathname;
      if (method === "GET" && path === "/v0/webhooks") return Response.json(webhooks);
      if (method === "POST" && path === "/v0/webhooks") {
        const created = stored({ ...body, webhookID: "0c9d8e7f-6a5b-4c3d-2e1f-0a9b8c7d6e5f" });
        webhooks.push(created);
        return Response.json(created);
      }
      const existing = webhooks.find((webhook) => path === `/v0/webhooks/${webhook.webhookID}`);
      if (existing !== undefined && (method === "PUT" || method === "PATCH")) {
        Object.assign(existing, body);
        return Response.json(existing);
      }
      return new Response("not found", { status: 404 });
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const ensure = (network: "mainnet" | "devnet" = "mainnet") =>
    ensureHeliusWebhook({
      apiKey: API_KEY,
      webhookUrl: WEBHOOK_URL,
      authHeader: AUTH,
      programId: PROGRAM_ID,
      network,
    });

  const wantedBody = (webhookType: string) => ({
    webhookURL: WEBHOOK_URL,
    webhookType,
    transactionTypes: ["ANY"],
    accountAddresses: [PROGRAM_ID],
    authHeader: AUTH,
    txnStatus: "all",
  });

  it("Given no webhook for our URL, When the indexer starts, Then it creates a raw webhook on the program with our authHeader and returns its id", async () => {
    webhooks.push(
      stored({ webhookID: "11111111-2222-4333-8444-555555555555", webhookURL: "https://other/hook" }),
    );

    const id = await ensure();

    expect(id).toBe("0c9d8e7f-6a5b-4c3d-2e1f-0a9b8c7d6e5f");
    expect(calls.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: "GET", url: `${HELIUS_WEBHOOKS}?api-key=${API_KEY}`, body: undefined },
      { method: "POST", url: `${HELIUS_WEBHOOKS}?api-key=${API_KEY}`, body: wantedBody("raw") },
    ]);
  });

  it("Given the webhook exists, When the indexer starts again, Then that webhook is updated to the wanted settings and nothing is created", async () => {
    const first = await ensure();
    calls.length = 0;
    webhooks[0] = stored({ webhookID: first });

    const second = await ensure();

    expect(second).toBe(first);
    expect(calls.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: "GET", url: `${HELIUS_WEBHOOKS}?api-key=${API_KEY}`, body: undefined },
      { method: "PUT", url: `${HELIUS_WEBHOOKS}/${first}?api-key=${API_KEY}`, body: wantedBody("raw") },
    ]);
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0]).toMatchObject({ accountAddresses: [PROGRAM_ID], authHeader: AUTH, active: true });
  });

  it("Given Helius disabled the webhook after failed deliveries, When the indexer starts, Then it is updated and enabled again", async () => {
    const existing = stored({ active: false });
    webhooks.push(existing);

    expect(await ensure()).toBe(existing.webhookID);

    expect(calls.map(({ method, body }) => ({ method, body }))).toEqual([
      { method: "GET", body: undefined },
      { method: "PUT", body: wantedBody("raw") },
      { method: "PATCH", body: { active: true } },
    ]);
    expect(existing.active).toBe(true);
  });

  it("Given devnet, When the webhook is created, Then its type is rawDevnet", async () => {
    await ensure("devnet");

    expect(calls[1]).toMatchObject({ method: "POST", body: wantedBody("rawDevnet") });
  });

  it("Given any call, When the SDK sends it, Then it goes over HTTPS to the Helius host with the API key only in the query string", async () => {
    await ensure();
    webhooks[0] = stored({ webhookID: webhooks[0]?.webhookID, active: false });
    await ensure();

    expect(calls.length).toBe(5);
    for (const call of calls) {
      const url = new URL(call.url);
      expect(url.origin).toBe("https://api-mainnet.helius-rpc.com");
      expect([...url.searchParams]).toEqual([["api-key", API_KEY]]);
      expect(url.pathname).not.toContain(API_KEY);
      expect(JSON.stringify(call.headers)).not.toContain(API_KEY);
      expect(JSON.stringify(call.body ?? null)).not.toContain(API_KEY);
    }
  });

  it("Given Helius refuses a call, When the indexer starts, Then it fails without quoting the API key", async () => {
    vi.stubGlobal("fetch", async () => new Response("invalid api key", { status: 401 }));

    const failure = await ensure().catch((error: Error) => error);

    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain("401");
    expect((failure as Error).message).not.toContain(API_KEY);
  });

  it("Given an API key that would change the URL it is pasted into, When the indexer starts, Then it refuses before calling Helius", async () => {
    await expect(
      ensureHeliusWebhook({
        apiKey: `${API_KEY}&api-key=attacker`,
        webhookUrl: WEBHOOK_URL,
        authHeader: AUTH,
        programId: PROGRAM_ID,
        network: "mainnet",
      }),
    ).rejects.toThrow(RangeError);
    expect(calls).toEqual([]);
  });
});
