/** The dashboard's sign-in and session routes: thin handlers over enrollment, sign-in, sessions and passkeys. */
import type { Response } from "express";
import type { ServiceContext } from "../../core/service-context";
import { clearedSessionCookie, dashboardSite, sessionCookie } from "../../dashboard-auth/dashboard-site";
import { beginEnrollment, completeEnrollment } from "../../dashboard-auth/enroll-passkey";
import { listPasskeys, revokePasskey, setWrappedSecret } from "../../dashboard-auth/passkeys";
import {
  type DashboardSession,
  endAccountSessions,
  endSession,
  sessionView,
  viewOf,
} from "../../dashboard-auth/sessions";
import { beginSignIn, completeSignIn } from "../../dashboard-auth/sign-in";
import type { Caller } from "../authenticate";
import { bindingOf, withBrowserBinding } from "../challenge-cookie";
import type { Handlers } from "../mount-routes";

/** The session of a `session` route's caller (mount-routes refused any other caller). */
export function sessionOf(caller: Caller): DashboardSession {
  if (caller.session === null) throw new TypeError("a session route was reached without a session");
  return caller.session;
}

/** Sets the cookie of a session just started; it lives as long as the session may. */
function setSessionCookie(service: ServiceContext, response: Response, session: DashboardSession) {
  const maxAgeSeconds = (Date.parse(session.row.expiresAt) - service.clock()) / 1000;
  response.setHeader("Set-Cookie", sessionCookie(dashboardSite(service), session.token, maxAgeSeconds));
}

export const dashboardHandlers: Pick<
  Handlers,
  | "beginEnrollment"
  | "completeEnrollment"
  | "beginSignIn"
  | "completeSignIn"
  | "getSession"
  | "signOut"
  | "signOutEverywhere"
  | "listPasskeys"
  | "revokePasskey"
  | "putWrappedSecret"
> = {
  beginEnrollment: async ({ service, body, request, response }) =>
    withBrowserBinding(dashboardSite(service), request, response, (binding) =>
      beginEnrollment(service, body.token, binding),
    ),
  completeEnrollment: async ({ service, body, request, response }) => {
    const session = await completeEnrollment(service, body, bindingOf(dashboardSite(service), request));
    setSessionCookie(service, response, session);
    return viewOf(service, session);
  },
  beginSignIn: async ({ service, request, response }) =>
    withBrowserBinding(dashboardSite(service), request, response, (binding) => beginSignIn(service, binding)),
  completeSignIn: async ({ service, body, request, response }) => {
    const session = await completeSignIn(service, body, bindingOf(dashboardSite(service), request));
    setSessionCookie(service, response, session);
    return viewOf(service, session);
  },
  getSession: async ({ service, caller }) => sessionView(service, sessionOf(caller)),
  signOut: async ({ service, caller, response }) => {
    await endSession(service, sessionOf(caller));
    response.setHeader("Set-Cookie", clearedSessionCookie(dashboardSite(service)));
    return { signed_out: true as const };
  },
  signOutEverywhere: async ({ service, caller, response }) => {
    const ended = await endAccountSessions(service, caller.account.id);
    response.setHeader("Set-Cookie", clearedSessionCookie(dashboardSite(service)));
    return { signed_out: ended };
  },
  listPasskeys: async ({ service, caller }) => ({ passkeys: await listPasskeys(service, caller.account.id) }),
  revokePasskey: async ({ service, caller, params }) =>
    revokePasskey(service, caller.account.id, params.passkey_id),
  putWrappedSecret: async ({ service, caller, params, body }) =>
    setWrappedSecret(service, sessionOf(caller), params.passkey_id, body.wrapped_secret),
};
