/**
 * Where the dashboard lives, as WebAuthn and the cookies need it: the expected origin
 * (`DASHBOARD_ORIGIN`), the RP ID (its hostname: a passkey is bound to it, so changing the origin's
 * host orphans every passkey) and, from its scheme, how its cookies are set. Under an https origin
 * they are `Secure` and named with the `__Host-` prefix (`__Host-cpay_session`,
 * `__Host-cpay_challenge`), which a browser accepts only from this host over https, for every path
 * and without a Domain, so no sibling subdomain or plain-http page can plant or shadow one; over
 * http (a localhost origin) they keep their plain names, since browsers refuse `Secure` there.
 */
import type { ServiceContext } from "../core/service-context";
import { CHALLENGE_COOKIE, SESSION_COOKIE } from "./secret-tokens";

const HOST_PREFIX = "__Host-";

export interface DashboardSite {
  readonly origin: string;
  readonly rpId: string;
  /** An https origin: the cookies are `Secure` and `__Host-` named. */
  readonly secure: boolean;
  /** The session cookie's name. */
  readonly sessionCookie: string;
  /** The name of the cookie binding WebAuthn challenges to the browser (challenge-binding.ts). */
  readonly challengeCookie: string;
}

export function dashboardSite(service: ServiceContext): DashboardSite {
  const origin = service.dashboardOrigin();
  const url = new URL(origin);
  const secure = url.protocol === "https:";
  const named = (name: string) => (secure ? `${HOST_PREFIX}${name}` : name);
  return {
    origin,
    rpId: url.hostname,
    secure,
    sessionCookie: named(SESSION_COOKIE),
    challengeCookie: named(CHALLENGE_COOKIE),
  };
}

/**
 * A Set-Cookie value for one of the site's cookies: HttpOnly (no page script reads it),
 * SameSite=Strict (no other site's request carries it), Path=/, the given Max-Age, Secure on https.
 */
export function siteCookie(site: DashboardSite, name: string, value: string, maxAgeSeconds: number): string {
  return [
    `${name}=${value}`,
    "HttpOnly",
    "SameSite=Strict",
    "Path=/",
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    ...(site.secure ? ["Secure"] : []),
  ].join("; ");
}

/** The Set-Cookie value that carries the session `token`. */
export function sessionCookie(site: DashboardSite, token: string, maxAgeSeconds: number): string {
  return siteCookie(site, site.sessionCookie, token, maxAgeSeconds);
}

/** The Set-Cookie value that clears the session cookie. */
export function clearedSessionCookie(site: DashboardSite): string {
  return sessionCookie(site, "", 0);
}
