/**
 * Serves the account holders' web app (the `dashboard` workspace, built into dashboard/dist) at `/`,
 * only where the app is what was asked for: a GET or HEAD of a file of the build (its scripts, styles
 * and wasm, whatever the request accepts), or a page — a request whose `Accept` prefers `text/html`
 * to JSON, as a browser's navigation does — at a path outside the API, answered with index.html (the
 * app routes in the browser, and shows its own "Not found" for a path it has no page for). Anything
 * else passes through to the API's JSON 404: every path under a version prefix (`/v1`, `/v2`, any
 * `/v<n>`, whatever it accepts), so a client with a wrong base URL or version gets an error it can
 * parse, and a non-page request (no `Accept`, `Accept: application/json`, or any type at all, as
 * `curl` and client libraries send) to any path the API does not serve.
 *
 * Every answer carries a strict Content-Security-Policy: the app's own scripts and styles only (no
 * inline code, so an injected string cannot run), WebAssembly compilation for the zk-sdk proofs
 * ('wasm-unsafe-eval', which allows no JavaScript eval), requests only to this origin, and no
 * framing. The holder's secret lives in that page, so these headers are part of its protection.
 *
 * When the app is not built (a checkout where no one ran the build), a page answers 503 with a page
 * naming the command that builds it; the API keeps working. The build is looked for on each request,
 * so building while the service runs is enough.
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { NextFunction, Request, Response } from "express";

export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

export const DASHBOARD_BUILD_COMMAND = "npm run build --workspace @cpay/dashboard";

/** dashboard/dist of this checkout (api/src/http -> repository root). */
export const DEFAULT_DASHBOARD_DIR = resolve(import.meta.dirname, "../../../dashboard/dist");

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cpay dashboard not built</title></head>
<body><main><h1>The dashboard is not built</h1>
<p>The API is running; its web app has not been built in this checkout. Build it with</p>
<pre><code>${DASHBOARD_BUILD_COMMAND}</code></pre>
<p>then reload this page (scripts/start.sh builds it for you).</p></main></body></html>
`;

function setSecurityHeaders(response: Response): void {
  response.setHeader("Content-Security-Policy", DASHBOARD_CSP);
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("Referrer-Policy", "no-referrer");
}

/** `/v<n>` and everything under it, any version (Express matches paths case-insensitively). */
const VERSIONED_API_PATH = /^\/v[0-9]+(?:\/|$)/i;

/** Whether the request asks for a page: it prefers HTML to JSON (a tie, as with no `Accept`, is JSON). */
function asksForPage(request: Request): boolean {
  return request.accepts(["application/json", "text/html"]) === "text/html";
}

/** The middleware; `dir` is the build output (default dashboard/dist). */
export function serveDashboard(dir: string = DEFAULT_DASHBOARD_DIR) {
  const root = resolve(dir);
  const index = join(root, "index.html");
  return (request: Request, response: Response, next: NextFunction): void => {
    if ((request.method !== "GET" && request.method !== "HEAD") || VERSIONED_API_PATH.test(request.path)) {
      next();
      return;
    }
    const file = existsSync(index) ? fileOf(root, request.path) : null;
    if (file !== null) {
      setSecurityHeaders(response);
      // Vite names every file under assets/ by its content hash: it never changes under that name.
      const immutable = request.path.startsWith("/assets/");
      response.setHeader("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      response.sendFile(file, { dotfiles: "deny", lastModified: false, etag: false }, (error) => {
        if (error !== undefined && !response.headersSent) next(error);
      });
      return;
    }
    // A missing file (a name with an extension) is the API's 404, not the app: a stale script URL
    // must fail as a script, not parse HTML. Any other path asked for as a page is an app route.
    if (/\.[A-Za-z0-9]+$/.test(request.path) || !asksForPage(request)) {
      next();
      return;
    }
    setSecurityHeaders(response);
    if (!existsSync(index)) {
      response.status(503).type("html").setHeader("Cache-Control", "no-store").send(NOT_BUILT_PAGE);
      return;
    }
    response.setHeader("Cache-Control", "no-cache");
    response.sendFile(index, { lastModified: false, etag: false }, (error) => {
      if (error !== undefined && !response.headersSent) next(error);
    });
  };
}

/** The regular file under `root` that `path` names, or null (never a path outside root). */
function fileOf(root: string, path: string): string | null {
  if (path === "/" || path.endsWith("/")) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  const file = resolve(root, `.${decoded}`);
  if (!file.startsWith(root + sep)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}
