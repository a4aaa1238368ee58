/**
 * Which webhook URLs the service will POST to (DESIGN section 8): HTTPS only, no credentials in
 * the URL, and every address the host resolves to must be public — loopback, private, link-local
 * (incl. the 169.254.169.254 metadata service), carrier-grade NAT, multicast, documentation and
 * reserved ranges are refused, also when written as an IPv4-mapped or NAT64 IPv6 address. The check
 * runs after DNS resolution and returns the addresses, so a delivery can connect to exactly those
 * (a second lookup could be answered differently: DNS rebinding). Redirects are not followed at
 * delivery. `allowLocal` is the explicit local-development switch (tests, a receiver on this
 * machine): it admits `http:` and non-public addresses.
 */
import { Resolver as DnsResolver, lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

export type UrlRefusal =
  | "malformed_url"
  | "not_https"
  | "credentials_in_url"
  | "unresolvable_host"
  | "non_public_address";

export type UrlCheck =
  | { readonly ok: true; readonly url: URL; readonly addresses: readonly string[] }
  | { readonly ok: false; readonly reason: UrlRefusal; readonly message: string };

export type Resolver = (hostname: string) => Promise<readonly string[]>;

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
/**
 * IPv6 is allowed only in global unicast (2000::/3), less the parts of it that are not an
 * ordinary host: IETF protocol assignments (2001::/23: Teredo, benchmarking, ORCHID), 6to4
 * (2002::/16, which relays to any IPv4 address), and documentation (2001:db8::/32, 3fff::/20).
 * Everything outside 2000::/3 — loopback, ::/96 IPv4-compatible, SIIT ::ffff:0:0/96, local NAT64
 * 64:ff9b:1::/48, discard, ULA, link- and site-local, multicast — is refused, except the two
 * forms that name an IPv4 address, which are judged by that address.
 */
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet("2000::", 3, "ipv6");
const NON_PUBLIC_GLOBAL = new BlockList();
for (const [network, prefix] of [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
] as const) {
  NON_PUBLIC_GLOBAL.addSubnet(network, prefix, "ipv6");
}

/** True when `address` (IPv4 or IPv6 text) is not a public unicast address. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, "ipv4");
  if (family !== 6) return true;
  const embedded = embeddedIpv4(address);
  if (embedded !== null) return NON_PUBLIC.check(embedded, "ipv4");
  return !GLOBAL_UNICAST.check(address, "ipv6") || NON_PUBLIC_GLOBAL.check(address, "ipv6");
}

/**
 * The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`, which the socket connects over IPv4)
 * or well-known NAT64 (`64:ff9b::/96`, how a DNS64 network names every IPv4 host) address.
 */
function embeddedIpv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  if (bytes === null) return null;
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  const nat64 =
    bytes[0] === 0x00 &&
    bytes[1] === 0x64 &&
    bytes[2] === 0xff &&
    bytes[3] === 0x9b &&
    bytes.slice(4, 12).every((b) => b === 0);
  return mapped || nat64 ? bytes.slice(12).join(".") : null;
}

function ipv6Bytes(address: string): number[] | null {
  let text = address.toLowerCase().split("%")[0] as string;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const parts = (dotted[1] as string).split(".").map(Number);
    const hex = [((parts[0] ?? 0) << 8) | (parts[1] ?? 0), ((parts[2] ?? 0) << 8) | (parts[3] ?? 0)];
    text = text.replace(
      dotted[1] as string,
      `${(hex[0] as number).toString(16)}:${(hex[1] as number).toString(16)}`,
    );
  }
  const [head = "", tail] = text.split("::");
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
  const headGroups = groupsOf(head);
  const tailGroups = tail === undefined ? [] : groupsOf(tail);
  const missing = 8 - headGroups.length - tailGroups.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  const groups = [...headGroups, ...Array(missing).fill("0"), ...tailGroups].map((g) =>
    Number.parseInt(g, 16),
  );
  if (groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return null;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

/** Per try: c-ares gives up on a server after `timeout` ms, `tries` times (its back-off included). */
const DNS_TIMEOUT_MS = 1_000;
const DNS_TRIES = 2;
/** Whatever c-ares does, a lookup is abandoned after this long. */
export const DNS_DEADLINE_MS = 3_000;

/**
 * A and AAAA through c-ares, bounded by DNS_DEADLINE_MS: `dns.lookup` (getaddrinfo) has no
 * time-out and runs on libuv's four-thread pool, so a deliberately slow authoritative server could
 * hold those threads (shared with file I/O) and every delivery behind them. c-ares queries run on
 * the event loop. A host with neither record is refused. `servers` overrides the system's (tests).
 */
export function createDnsResolver(servers?: readonly string[]): Resolver {
  const resolver = new DnsResolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
  if (servers !== undefined) resolver.setServers([...servers]);
  return async (hostname) => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("dns deadline")), DNS_DEADLINE_MS);
    });
    try {
      const answers = await Promise.race([
        Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]),
        deadline,
      ]);
      const addresses = answers.flatMap((answer) => (answer.status === "fulfilled" ? answer.value : []));
      if (addresses.length === 0) throw new Error("no address");
      return addresses;
    } finally {
      clearTimeout(timer);
    }
  };
}

let publicResolver: Resolver | undefined;
const publicDnsResolver: Resolver = (hostname) => {
  publicResolver ??= createDnsResolver();
  return publicResolver(hostname);
};

/** Local development only: also the hosts file (`localhost`), which c-ares queries do not read. */
const localDevelopmentResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Checks a subscription URL (see the module doc); never throws. */
export async function checkWebhookUrl(
  text: string,
  options: { readonly allowLocal?: boolean; readonly resolve?: Resolver } = {},
): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse("malformed_url", "the url is not a valid absolute URL");
  }
  const allowLocal = options.allowLocal ?? false;
  if (url.protocol !== "https:" && !(allowLocal && url.protocol === "http:")) {
    return refuse("not_https", "webhook URLs must use https");
  }
  if (url.username !== "" || url.password !== "") {
    return refuse("credentials_in_url", "a webhook URL must not carry credentials");
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: readonly string[];
  try {
    addresses =
      isIP(host) !== 0
        ? [host]
        : await (options.resolve ?? (allowLocal ? localDevelopmentResolver : publicDnsResolver))(host);
  } catch {
    return refuse("unresolvable_host", "the host does not resolve");
  }
  if (addresses.length === 0) return refuse("unresolvable_host", "the host does not resolve");
  if (!allowLocal) {
    // The refusal never names the address: it would turn this check into a resolver of internal
    // names for any API caller.
    if (addresses.some(isNonPublicAddress)) {
      return refuse("non_public_address", "the host is not reachable at a public address");
    }
  }
  return { ok: true, url, addresses };
}

function refuse(reason: UrlRefusal, message: string): UrlCheck {
  return { ok: false, reason, message };
}
