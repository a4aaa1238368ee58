/**
 * Serves the account holders' web app (the `dashboard` workspace, built into dashboard/dist) at `/`:
 * every GET or HEAD outside `/v1` is a file of the build or, for an app route such as `/transfers`,
 * its index.html (the app routes in the browser). Everything under `/v1` passes through to the API,
 * so an unknown API path is still the JSON 404.
 *
 * Every answer carries a strict Content-Security-Policy: the app's own scripts and styles only (no
 * inline code, so an injected string cannot run), WebAssembly compilation for the zk-sdk proofs
 * ('wasm-unsafe-eval', which allows no JavaScript eval), requests only to this origin, and no
 * framing. The holder's secret lives in that page, so these headers are part of its protection.
 *
 * When the app is not built (a checkout where no one ran the build), `/` answers 503 with a page
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

function isApiPath(path: string): boolean {
  return path === "/v1" || path.startsWith("/v1/");
}

/** The middleware; `dir` is the build output (default dashboard/dist). */
export function serveDashboard(dir: string = DEFAULT_DASHBOARD_DIR) {
  const root = resolve(dir);
  const index = join(root, "index.html");
  return (request: Request, response: Response, next: NextFunction): void => {
    if ((request.method !== "GET" && request.method !== "HEAD") || isApiPath(request.path)) {
      next();
      return;
    }
    setSecurityHeaders(response);
    if (!existsSync(index)) {
      response.status(503).type("html").setHeader("Cache-Control", "no-store").send(NOT_BUILT_PAGE);
      return;
    }
    const file = fileOf(root, request.path);
    if (file !== null) {
      // Vite names every file under assets/ by its content hash: it never changes under that name.
      const immutable = request.path.startsWith("/assets/");
      response.setHeader("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      response.sendFile(file, { dotfiles: "deny", lastModified: false, etag: false }, (error) => {
        if (error !== undefined && !response.headersSent) next(error);
      });
      return;
    }
    // A missing file (a name with an extension) is a 404, not the app: a stale script URL must fail
    // as a script, not parse HTML. Any other path is an app route.
    if (/\.[A-Za-z0-9]+$/.test(request.path)) {
      response.status(404).type("text").setHeader("Cache-Control", "no-store").send("not found\n");
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
