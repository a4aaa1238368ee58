/**
 * Where the dashboard lives, as WebAuthn and the cookie need it: the expected origin
 * (`DASHBOARD_ORIGIN`), the RP ID (its hostname: a passkey is bound to it, so changing the origin's
 * host orphans every passkey) and whether the cookie is `Secure` (an https origin).
 */
import type { ServiceContext } from "../service-context";
import { SESSION_COOKIE } from "./secret-tokens";

export interface DashboardSite {
  readonly origin: string;
  readonly rpId: string;
  readonly secureCookie: boolean;
}

export function dashboardSite(service: ServiceContext): DashboardSite {
  const origin = service.dashboardOrigin();
  const url = new URL(origin);
  return { origin, rpId: url.hostname, secureCookie: url.protocol === "https:" };
}

/** The Set-Cookie value that carries `token` (HttpOnly, SameSite=Strict, Path=/, Secure on https). */
export function sessionCookie(site: DashboardSite, token: string, maxAgeSeconds: number): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    "HttpOnly",
    "SameSite=Strict",
    "Path=/",
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    ...(site.secureCookie ? ["Secure"] : []),
  ].join("; ");
}

/** The Set-Cookie value that clears the session cookie. */
export function clearedSessionCookie(site: DashboardSite): string {
  return sessionCookie(site, "", 0);
}
