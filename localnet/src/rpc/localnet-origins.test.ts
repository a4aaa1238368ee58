/**
 * Browsers and the localnet: the embedded cluster's authority keys are public, so a web page the
 * developer happens to visit must not be able to drive the local chain. Only the origins the
 * localnet is told to allow (a local dashboard) get CORS headers; a request from any other origin
 * is refused before it runs, over HTTP and over WebSocket. Clients that send no Origin (CLIs,
 * Node, the indexer) are unaffected.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createEmbeddedCluster, type EmbeddedCluster } from "../cluster/index";
import { type Localnet, startLocalnet } from "./start-localnet";

const DASHBOARD = "http://localhost:5173";
const EVIL = "https://evil.example";
const GET_SLOT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot" });

/** Whether a WebSocket handshake sent with `origin` is accepted. */
function wsOpens(url: string, origin: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { origin });
    socket.once("open", () => {
      socket.close();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("localnet: which web origins may call it", () => {
  let cluster: EmbeddedCluster;
  let localnet: Localnet;
  beforeAll(async () => {
    cluster = await createEmbeddedCluster({ slotMs: 50 });
    localnet = await startLocalnet({ cluster, rpcPort: 0, wsPort: 0, allowedOrigins: [DASHBOARD] });
  });
  afterAll(async () => {
    cluster?.stop();
    await localnet?.close();
  });

  const post = (origin?: string) =>
    fetch(localnet.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json", ...(origin === undefined ? {} : { origin }) },
      body: GET_SLOT,
    });

  it("Given a page on another origin, When it sends a preflight or a POST, Then it gets no Access-Control-Allow-Origin and the POST is refused unrun", async () => {
    const preflight = await fetch(localnet.rpcUrl, {
      method: "OPTIONS",
      headers: {
        origin: EVIL,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const refused = await post(EVIL);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(refused.status).toBe(403);
    expect(await wsOpens(localnet.wsUrl, EVIL)).toBe(false);
  });

  it("Given the allowed dashboard origin, Then it gets CORS headers for itself, and a client with no Origin is served as before", async () => {
    const preflight = await fetch(localnet.rpcUrl, {
      method: "OPTIONS",
      headers: { origin: DASHBOARD, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(DASHBOARD);
    expect(preflight.headers.get("vary")).toContain("Origin");
    const allowed = await post(DASHBOARD);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(DASHBOARD);
    expect(await wsOpens(localnet.wsUrl, DASHBOARD)).toBe(true);
    const cli = await post();
    expect(cli.status).toBe(200);
    expect(cli.headers.get("access-control-allow-origin")).toBeNull();
    expect(((await cli.json()) as { result: number }).result).toBeGreaterThanOrEqual(0);
  });
});
