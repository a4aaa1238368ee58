/**
 * Which web origins may call the localnet. Every authority key of the embedded cluster is public
 * (TEST / LOCALNET ONLY), so a page on any origin that could POST to 127.0.0.1:8899 could mint
 * USDG, drain the fee reserve or upgrade the program on a developer's chain. By default no origin
 * is allowed: a request carrying an `Origin` header (browsers send one on every cross-origin
 * request, on every POST, and on every WebSocket handshake) is refused before it runs, and no CORS
 * header is ever sent. Clients that send no Origin (CLIs, Node, the indexer) are served as usual.
 * A local dashboard is let in by naming its origin (`LOCALNET_ALLOWED_ORIGINS`).
 */

/** How one request's `Origin` header stands. */
export type OriginVerdict = "none" | "allowed" | "refused";

export function originVerdict(allowed: ReadonlySet<string>, origin: string | undefined): OriginVerdict {
  if (origin === undefined) return "none";
  return allowed.has(origin) ? "allowed" : "refused";
}

/**
 * `LOCALNET_ALLOWED_ORIGINS`: comma-separated origins (`http://localhost:5173`), each exactly as a
 * browser sends it (scheme, host, port if not the default, no path); empty or unset allows none.
 * Throws naming the first entry that is not an origin, and refuses `*`.
 */
export function parseAllowedOrigins(text: string | undefined): string[] {
  if (text === undefined || text.trim() === "") return [];
  return text.split(",").map((entry) => {
    const origin = entry.trim();
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = null;
    }
    if (parsed === null || parsed.origin !== origin || origin === "null") {
      throw new Error(
        `LOCALNET_ALLOWED_ORIGINS: "${origin}" is not an origin (expected e.g. http://localhost:5173, no path, no wildcard)`,
      );
    }
    return origin;
  });
}
