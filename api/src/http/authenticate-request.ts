/**
 * Who is calling, by the request's credentials: an `Authorization` header is judged alone (an API
 * key, authenticate.ts), whatever cookie comes with it; without one, the session cookie of a
 * dashboard session (`cpay_session`, `__Host-cpay_session` under an https dashboard:
 * dashboard-site.ts). A cookie-authenticated request must come from the dashboard's own pages
 * (`403 cross_site_request` for a browser's request from another site: cross-site.ts) and, other
 * than GET/HEAD, carry the session's `X-CSRF-Token` (`403 csrf_token_invalid`); both are checked
 * before the session is touched, so a refused request changes nothing. With neither credential:
 * `401 unauthorized`. A session cookie of another environment than the `X-Cpay-Environment` header
 * names is `400 invalid_request`, before the session is looked up.
 */
import type { Request } from "express";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { dashboardSite } from "../dashboard-auth/dashboard-site";
import { cookieOf, csrfTokenMatches, environmentOfSessionToken } from "../dashboard-auth/secret-tokens";
import { findLiveSession, touchSession } from "../dashboard-auth/sessions";
import { authenticate, type Caller } from "./authenticate";
import { refuseCrossSite } from "./cross-site";
import { checkSessionEnvironment } from "./environment-header";

export async function authenticateRequest(service: ServiceContext, request: Request): Promise<Caller> {
  const header = request.get("authorization");
  const site = dashboardSite(service);
  const cookie = header === undefined ? cookieOf(request.get("cookie"), site.sessionCookie) : null;
  if (cookie === null) return authenticate(service, header);
  refuseCrossSite(request, site.origin);
  checkSessionEnvironment(service, request, environmentOfSessionToken(cookie));
  const session = await findLiveSession(service, cookie);
  if (request.method !== "GET" && request.method !== "HEAD") {
    if (!csrfTokenMatches(cookie, request.get("x-csrf-token"))) {
      throw new ApiError(
        "csrf_token_invalid",
        "a request made with the session cookie needs the session's X-CSRF-Token header",
        "x-csrf-token",
      );
    }
  }
  const touched = await touchSession(service, session);
  return { account: touched.account, apiKey: null, session: touched };
}
