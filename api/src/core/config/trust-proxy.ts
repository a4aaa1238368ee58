/**
 * `TRUST_PROXY`: which reverse proxies in front of the service Express believes about the client's
 * address (`X-Forwarded-For`), and so which address the failed-authentication limit and the
 * public routes' per-address rate limit count against. Unset (the default): none, the address is
 * the socket's peer — right when clients connect directly, while behind a proxy every client then
 * shares the proxy's address (and its budgets; the limit still never refuses a valid credential).
 * Set it to the proxies' addresses, never to "anyone": a trusted hop is believed about who sent
 * the request, so trusting every hop would let each client name its own address and budget.
 *
 * Accepted: a hop count (`1`: the one proxy in front, whatever its address; up to 10), or a
 * comma-separated list of addresses, CIDR ranges and Express's names `loopback`, `linklocal`,
 * `uniquelocal`. `true` is refused for the reason above; `false` is the same as unset.
 */
import { isIP } from "node:net";
import { ConfigError } from "@cpay/ledger/config";

/** What `app.set("trust proxy", ...)` takes: nothing, a hop count, or the trusted proxies. */
export type TrustProxy = false | number | readonly string[];

const NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyEntry(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^[0-9]{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export function trustProxyFromEnv(env: NodeJS.ProcessEnv): TrustProxy {
  const given = env.TRUST_PROXY?.trim();
  if (given === undefined || given === "" || given === "false") return false;
  if (given === "true") {
    throw new ConfigError(
      "TRUST_PROXY=true would believe every X-Forwarded-For hop, so any client could choose its own address; give the hop count (e.g. 1) or the proxies' addresses",
    );
  }
  if (/^[0-9]+$/.test(given)) {
    const hops = Number(given);
    if (hops < 1 || hops > 10) throw new ConfigError(`TRUST_PROXY hop count must be 1-10, got ${given}`);
    return hops;
  }
  const entries = given.split(",").map((entry) => entry.trim());
  const bad = entries.find((entry) => !isProxyEntry(entry));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be a hop count or comma-separated addresses, CIDR ranges, loopback, linklocal or uniquelocal; "${bad}" is none of these`,
    );
  }
  return entries;
}
