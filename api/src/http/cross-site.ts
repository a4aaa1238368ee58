/**
 * Refuses a browser request sent by a page of another site than the dashboard, where a browser
 * would otherwise lend that page the holder's standing: any request carrying the session cookie,
 * and the sign-in and enrollment steps (which start a session). Browsers say where a request comes
 * from: `Origin` (sent with every request but a same-origin GET or HEAD) must be the dashboard's
 * origin exactly (`null`, from a sandboxed or opaque page, is another site); without it,
 * `Sec-Fetch-Site` must be `same-origin` or `none` (the holder typed the address or followed a
 * bookmark). A request with neither header is not a current browser's (curl, the SDK, a server): it
 * passes, and the SameSite=Strict cookies, the CSRF token and JSON-only bodies still stand in the
 * way of an old browser. API-key requests are never checked: a page cannot set `Authorization` on
 * another origin's request without a CORS preflight, which this service never grants.
 */
import type { Request } from "express";
import { ApiError } from "../core/api-error";

/** Throws `403 cross_site_request` unless the request comes from `dashboardOrigin` (or from no browser). */
export function refuseCrossSite(request: Request, dashboardOrigin: string): void {
  const origin = request.get("origin");
  if (origin !== undefined) {
    if (origin === dashboardOrigin) return;
    throw new ApiError(
      "cross_site_request",
      `this request came from a page of another origin than the dashboard's (${dashboardOrigin})`,
      "origin",
    );
  }
  const site = request.get("sec-fetch-site");
  if (site === undefined || site === "same-origin" || site === "none") return;
  throw new ApiError(
    "cross_site_request",
    `this request came from a page of another site than the dashboard's (${dashboardOrigin})`,
    "sec-fetch-site",
  );
}
