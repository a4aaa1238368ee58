/**
 * A browser as the dashboard's pages drive the API, for the suites: a cookie jar (what each
 * Set-Cookie stored, sent back on every request as a same-origin `fetch` with credentials does),
 * the page's `Origin` on every request but a GET and `Sec-Fetch-Site: same-origin` on all, and JSON
 * bodies. Each of these can be overridden, so a suite can send what a page of another site (or no
 * browser at all) would.
 */

export interface BrowserAnswer {
  readonly status: number;
  readonly body: { error?: { code: string; message: string }; [field: string]: unknown };
  readonly response: Response;
  /** The Set-Cookie lines of the answer. */
  readonly setCookies: readonly string[];
}

export interface BrowserCall {
  readonly method?: string;
  /** Sent as JSON (`Content-Type: application/json`). */
  readonly body?: unknown;
  /** Sent as it is, with whatever `headers` say (for a body that is not JSON). */
  readonly rawBody?: string;
  /** Added to (or, with the same name, replacing) the browser's own headers; null removes one. */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** The session's CSRF token, sent as `X-CSRF-Token`. */
  readonly csrf?: string;
  /** false: send no cookie with this request (a browser that never asked for one). */
  readonly cookies?: boolean;
}

export interface DashboardBrowser {
  /** The jar: cookie name -> value. */
  readonly cookies: Map<string, string>;
  call(path: string, init?: BrowserCall): Promise<BrowserAnswer>;
}

export function createDashboardBrowser(options: {
  /** Where the API listens (the suite's world). */
  readonly apiUrl: string;
  /** The page's origin: the dashboard's, unless the suite plays another site. */
  readonly origin: string;
}): DashboardBrowser {
  const cookies = new Map<string, string>();
  return {
    cookies,
    async call(path, init = {}) {
      const method = init.method ?? (init.body === undefined && init.rawBody === undefined ? "GET" : "POST");
      const headers: Record<string, string> = { "sec-fetch-site": "same-origin" };
      if (method !== "GET" && method !== "HEAD") headers.origin = options.origin;
      if (init.body !== undefined) headers["content-type"] = "application/json";
      if (init.csrf !== undefined) headers["x-csrf-token"] = init.csrf;
      if (init.cookies !== false && cookies.size > 0) {
        headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
      }
      for (const [name, value] of Object.entries(init.headers ?? {})) {
        if (value === null) delete headers[name.toLowerCase()];
        else headers[name.toLowerCase()] = value;
      }
      const response = await fetch(new URL(path, options.apiUrl), {
        method,
        headers,
        ...(init.body !== undefined
          ? { body: JSON.stringify(init.body) }
          : init.rawBody !== undefined
            ? { body: init.rawBody }
            : {}),
      });
      const setCookies = response.headers.getSetCookie();
      for (const line of setCookies) store(cookies, line);
      const text = await response.text();
      return { status: response.status, body: text === "" ? {} : JSON.parse(text), response, setCookies };
    },
  };
}

/** Keeps (or, at `Max-Age=0`, forgets) the cookie one Set-Cookie line carries. */
function store(jar: Map<string, string>, line: string): void {
  const [pair = "", ...attributes] = line.split(";");
  const at = pair.indexOf("=");
  if (at <= 0) return;
  const name = pair.slice(0, at).trim();
  const expired = attributes.some((attribute) => /^\s*max-age\s*=\s*0\s*$/i.test(attribute));
  if (expired) jar.delete(name);
  else jar.set(name, pair.slice(at + 1).trim());
}

/** The attributes of the Set-Cookie line that sets `name`, lower-cased, or undefined. */
export function cookieAttributes(setCookies: readonly string[], name: string): string[] | undefined {
  const line = setCookies.find((candidate) => candidate.startsWith(`${name}=`));
  return line
    ?.split(";")
    .slice(1)
    .map((attribute) => attribute.trim().toLowerCase());
}
