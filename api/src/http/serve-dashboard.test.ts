import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express, { type Request, type Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../core/api-error";
import { sendError } from "./error-handler";
import { requestId } from "./request-id";
import { DASHBOARD_BUILD_COMMAND, DASHBOARD_CSP, serveDashboard } from "./serve-dashboard";

// The middleware between the API's routes and its JSON 404, as app.ts mounts it.
async function serve(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.use(requestId);
  app.use(serveDashboard(dir));
  app.use((_request: Request, response: Response) => {
    sendError(response, new ApiError("not_found", "no such route"));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((done) => server.once("listening", () => done()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** What a browser sends when it navigates to a page. */
const PAGE = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

/** The API's not-found answer: the error envelope with the request's id, not the app. */
async function expectJsonNotFound(response: globalThis.Response, what?: string): Promise<void> {
  expect(response.status, what).toBe(404);
  expect(response.headers.get("content-type"), what).toMatch(/^application\/json/);
  const requestId = response.headers.get("request-id");
  expect(requestId, what).toMatch(/^req_/);
  const body = (await response.json()) as { error: { code: string; request_id: string } };
  expect(body.error, what).toMatchObject({ code: "not_found", request_id: requestId });
}

function expectSecurityHeaders(response: globalThis.Response): void {
  expect(response.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("referrer-policy")).toBe("no-referrer");
}

describe("serving the dashboard build", () => {
  const root = mkdtempSync(join(tmpdir(), "cpay-dashboard-"));
  const built = join(root, "dist");
  let server: Awaited<ReturnType<typeof serve>>;
  let notBuilt: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    mkdirSync(join(built, "assets"), { recursive: true });
    writeFileSync(join(built, "index.html"), "<!doctype html><title>app</title><div id=app></div>");
    writeFileSync(join(built, "assets", "main-abc123.js"), "console.log(1);");
    writeFileSync(join(built, "assets", "zk-def456.wasm"), new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    writeFileSync(join(root, "outside.txt"), "not served");
    server = await serve(built);
    notBuilt = await serve(join(root, "missing"));
  });
  afterAll(async () => {
    await server.close();
    await notBuilt.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("serves index.html at / and at every app route asked for as a page, with the security headers", async () => {
    for (const path of ["/", "/transfers", "/developer/keys", "/enroll"]) {
      const response = await fetch(server.url + path, { headers: PAGE });
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expectSecurityHeaders(response);
      expect(await response.text()).toContain("<div id=app>");
    }
  });

  it("serves hashed assets as immutable files with their MIME type (wasm for the proofs)", async () => {
    const script = await fetch(`${server.url}/assets/main-abc123.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/^(text|application)\/javascript/);
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expectSecurityHeaders(script);
    expect(await script.text()).toBe("console.log(1);");
    const wasm = await fetch(`${server.url}/assets/zk-def456.wasm`);
    expect(wasm.headers.get("content-type")).toBe("application/wasm");
  });

  it("answers a missing file with the JSON 404, never the app, and never serves outside the build", async () => {
    for (const headers of [{}, PAGE]) {
      const missing = await fetch(`${server.url}/assets/gone-000.js`, { headers });
      await expectJsonNotFound(missing);
    }
    const escaped = await fetch(`${server.url}/%2e%2e/outside.txt`);
    expect(escaped.status).toBe(404);
    expect(await escaped.text()).not.toContain("not served");
  });

  it("answers any versioned API path with the JSON 404, even when a page is asked for", async () => {
    for (const path of [
      "/v2/transfers",
      "/v2",
      "/v0/accounts/me",
      "/v10/",
      "/V2/transfers",
      "/v1/nothing-here",
    ]) {
      for (const headers of [{}, PAGE, { accept: "application/json" }]) {
        await expectJsonNotFound(await fetch(server.url + path, { headers }), path);
      }
    }
  });

  it("answers a request for anything but a page at an app route with the JSON 404", async () => {
    for (const accept of [undefined, "*/*", "application/json", "text/plain"]) {
      const headers: Record<string, string> = accept === undefined ? {} : { accept };
      await expectJsonNotFound(await fetch(`${server.url}/transfers`, { headers }), accept);
    }
  });

  it("leaves /v1 to the API: an unknown API path is still the JSON 404", async () => {
    for (const path of ["/v1/nothing-here", "/v1"]) {
      const response = await fetch(server.url + path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await response.json()) as { error: { code: string } };
      expect(body.error.code).toBe("not_found");
    }
    // Only reads are the app's: a POST outside /v1 is the API's 404 too.
    const post = await fetch(`${server.url}/transfers`, { method: "POST" });
    expect(post.status).toBe(404);
    expect(post.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("says which command builds the app when it is not built", async () => {
    const response = await fetch(`${notBuilt.url}/transfers`, { headers: PAGE });
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expectSecurityHeaders(response);
    expect(await response.text()).toContain(DASHBOARD_BUILD_COMMAND);
    const api = await fetch(`${notBuilt.url}/v1/nothing-here`);
    expect(api.status).toBe(404);
  });
});
