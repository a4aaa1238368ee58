import { describe, expect, it } from "vitest";
import { checkWebhookUrl, isNonPublicAddress, type Resolver } from "./url-policy";

const resolver =
  (table: Record<string, readonly string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (found === undefined) throw new Error(`ENOTFOUND ${host}`);
    return found;
  };

const dns = resolver({
  "hooks.example.com": ["93.184.216.34"],
  "localhost.attacker.test": ["127.0.0.1"],
  "metadata.attacker.test": ["169.254.169.254"],
  "mixed.attacker.test": ["93.184.216.34", "10.0.0.5"],
  "v6.attacker.test": ["::ffff:127.0.0.1"],
  "v6public.example.com": ["2606:2800:220:1:248:1893:25c8:1946"],
  "siit.attacker.test": ["::ffff:0:a00:5"],
  "internal.attacker.test": ["10.20.30.40"],
});

describe("webhook URL policy", () => {
  it("accepts https to a host whose every address is public, and returns the addresses to pin", async () => {
    const check = await checkWebhookUrl("https://hooks.example.com/cpay", { resolve: dns });
    expect(check).toMatchObject({ ok: true, addresses: ["93.184.216.34"] });
    expect((await checkWebhookUrl("https://v6public.example.com/", { resolve: dns })).ok).toBe(true);
  });

  it.each([
    ["http://hooks.example.com/cpay", "not_https"],
    ["ftp://hooks.example.com/", "not_https"],
    ["https://user:pass@hooks.example.com/", "credentials_in_url"],
    ["not a url", "malformed_url"],
    ["https://127.0.0.1/", "non_public_address"],
    ["https://10.1.2.3/", "non_public_address"],
    ["https://172.20.0.1/", "non_public_address"],
    ["https://192.168.1.1/", "non_public_address"],
    ["https://169.254.169.254/latest/meta-data", "non_public_address"],
    ["https://100.64.0.1/", "non_public_address"],
    ["https://0.0.0.0/", "non_public_address"],
    ["https://[::1]/", "non_public_address"],
    ["https://[fe80::1]/", "non_public_address"],
    ["https://[fd00::1]/", "non_public_address"],
    ["https://[::ffff:127.0.0.1]/", "non_public_address"],
    ["https://[64:ff9b::a9fe:a9fe]/", "non_public_address"],
    ["https://localhost.attacker.test/", "non_public_address"],
    ["https://metadata.attacker.test/", "non_public_address"],
    ["https://mixed.attacker.test/", "non_public_address"],
    ["https://v6.attacker.test/", "non_public_address"],
    ["https://nowhere.invalid/", "unresolvable_host"],
    // IPv6 forms that reach IPv4 or non-global space through translation or old allocations.
    ["https://[::ffff:0:7f00:1]/", "non_public_address"],
    ["https://[::7f00:1]/", "non_public_address"],
    ["https://[64:ff9b:1::7f00:1]/", "non_public_address"],
    ["https://[2002:7f00:1::1]/", "non_public_address"],
    ["https://[fec0::1]/", "non_public_address"],
    ["https://[64:ff9b::a00:1]/", "non_public_address"],
    ["https://[64:ff9b::c0a8:101]/", "non_public_address"],
    ["https://siit.attacker.test/", "non_public_address"],
  ])("refuses %s (%s)", async (url, reason) => {
    const check = await checkWebhookUrl(url, { resolve: dns });
    expect(check).toMatchObject({ ok: false, reason });
  });

  it("refuses without echoing the address a host resolved to", async () => {
    const check = await checkWebhookUrl("https://internal.attacker.test/", { resolve: dns });
    expect(check).toMatchObject({ ok: false, reason: "non_public_address" });
    expect(JSON.stringify(check)).not.toContain("10.20.30.40");
  });

  it("admits http and local addresses only with the explicit local-development switch", async () => {
    expect((await checkWebhookUrl("http://127.0.0.1:4000/hook", { resolve: dns })).ok).toBe(false);
    expect((await checkWebhookUrl("http://127.0.0.1:4000/hook", { resolve: dns, allowLocal: true })).ok).toBe(
      true,
    );
  });

  it("classifies addresses", () => {
    for (const address of ["8.8.8.8", "93.184.216.34", "2606:4700::1111", "2a00:1450:4001:82a::200e"])
      expect(isNonPublicAddress(address)).toBe(false);
    for (const address of [
      "127.0.0.2",
      "::",
      "ff02::1",
      "224.0.0.1",
      "255.255.255.255",
      "::ffff:10.0.0.1",
      "::ffff:0:7f00:1",
      "::7f00:1",
      "64:ff9b:1::7f00:1",
      "2002:7f00:1::1",
      "fec0::1",
      "64:ff9b::a00:1",
      "3fff::1",
      "2001:db8::1",
      "2001::1",
      "garbage",
    ]) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
  });
});
