/**
 * One attempt is bounded whatever the receiver does: a receiver that answers one byte at a time
 * (never idle long enough for a socket idle time-out) is cut at the attempt's deadline, and an
 * oversized answer is cut at the size cap. Neither outcome quotes the receiver or its address.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { postWebhook } from "./post-webhook";

let server: Server | undefined;
const open = new Set<ServerResponse>();
afterEach(async () => {
  for (const response of open) response.destroy();
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  server = undefined;
});

async function receiver(answer: (response: ServerResponse) => void): Promise<URL> {
  server = createServer((request, response) => {
    open.add(response);
    request.resume();
    request.on("end", () => answer(response));
  });
  await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
}

const send = (url: URL, limits: { deadlineMs: number; maxResponseBytes?: number }) =>
  postWebhook({ url, address: "127.0.0.1", body: "{}", headers: {}, ...limits } as never);

describe("one webhook attempt", () => {
  it("given a receiver trickling its answer a byte every 200 ms, ends at the deadline as a failure", async () => {
    const url = await receiver((response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => response.write("."), 200);
      response.on("close", () => clearInterval(timer));
    });
    const started = Date.now();
    const outcome = await send(url, { deadlineMs: 1_000 });
    const took = Date.now() - started;
    expect(outcome).toEqual({ statusCode: null, error: "timeout" });
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(2_000);
  }, 6_000);

  it("given a trickle of response headers, ends at the deadline", async () => {
    const url = await receiver((response) => {
      const socket = response.socket;
      socket?.write("HTTP/1.1 200 OK\r\n");
      const timer = setInterval(() => socket?.write("x"), 200);
      socket?.on("close", () => clearInterval(timer));
    });
    expect(await send(url, { deadlineMs: 800 })).toEqual({ statusCode: null, error: "timeout" });
  }, 6_000);

  it("given an answer larger than the cap, stops reading and records a failure", async () => {
    const url = await receiver((response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("x".repeat(1_000_000));
    });
    expect(await send(url, { deadlineMs: 5_000, maxResponseBytes: 65_536 })).toEqual({
      statusCode: null,
      error: "response_too_large",
    });
  }, 6_000);

  it("given a prompt small answer, records its status code", async () => {
    const url = await receiver((response) => {
      response.statusCode = 204;
      response.end();
    });
    expect(await send(url, { deadlineMs: 5_000 })).toEqual({ statusCode: 204, error: null });
  });

  it("given nobody listening, records a generic connection failure without the address", async () => {
    const url = await receiver(() => undefined);
    await new Promise((done) => server?.close(done));
    server = undefined;
    expect(await send(url, { deadlineMs: 5_000 })).toEqual({ statusCode: null, error: "connection_failed" });
  });
});
