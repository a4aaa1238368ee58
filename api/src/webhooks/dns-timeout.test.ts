/**
 * A webhook host whose authoritative DNS server never answers must not hold a delivery (or
 * libuv's thread pool) for the resolver's own idea of forever: the lookup gives up within the
 * DNS deadline and the URL is refused as unresolvable.
 */
import { createSocket, type Socket } from "node:dgram";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkWebhookUrl, createDnsResolver, DNS_DEADLINE_MS } from "./url-policy";

describe("a DNS server that never answers", () => {
  let silent: Socket;
  let queries = 0;
  beforeAll(async () => {
    silent = createSocket("udp4");
    silent.on("message", () => {
      queries++;
    });
    await new Promise<void>((done) => silent.bind(0, "127.0.0.1", done));
  });
  afterAll(() => silent?.close());

  it("is given up on within the DNS deadline, and the host refused as unresolvable", async () => {
    const resolve = createDnsResolver([`127.0.0.1:${silent.address().port}`]);
    const started = Date.now();
    const check = await checkWebhookUrl("https://hooks.slow-dns.test/", { resolve });
    expect(check).toMatchObject({ ok: false, reason: "unresolvable_host" });
    expect(Date.now() - started).toBeLessThanOrEqual(DNS_DEADLINE_MS + 500);
    expect(queries).toBeGreaterThan(0);
  }, 15_000);
});
