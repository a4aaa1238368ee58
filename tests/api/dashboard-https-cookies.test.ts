/**
 * The dashboard's cookies when it is served over https (`DASHBOARD_ORIGIN=https://...`): the session
 * and the challenge binding are `__Host-` cookies (Secure, Path=/, no Domain), which a browser
 * accepts only from this host over https, so no sibling subdomain or plain-http page can plant one;
 * the plain names are not read there. (Over http, as on localhost, they keep their plain names:
 * dashboard-sessions.test.ts and dashboard-cross-site.test.ts.) The service itself is reached over
 * http here, as behind a TLS-terminating proxy.
 */
import { issueEnrollmentLink } from "@cpay/api";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { cookieAttributes, createDashboardBrowser } from "../support/dashboard-browser";
import { createSoftAuthenticator } from "../support/soft-authenticator";

const ORIGIN = "https://pay.example.com";

describe("the dashboard's cookies under an https origin", () => {
  const given = apiSuite({
    world: { env: { DASHBOARD_ORIGIN: ORIGIN } },
    accounts: ["alice"],
    setUp: async ({ world, alice }) => {
      const browser = createDashboardBrowser({ apiUrl: world.url, origin: ORIGIN });
      const passkey = createSoftAuthenticator({ origin: ORIGIN });
      const link = (await issueEnrollmentLink(world.service.context, alice.account)).link;
      const token = /#token=(enr_test_[A-Za-z0-9_-]{43})$/.exec(link)?.[1] as string;
      const enrollmentOptions = await browser.call("/v1/dashboard/enrollment/options", { body: { token } });
      expect(enrollmentOptions.status, JSON.stringify(enrollmentOptions.body)).toBe(200);
      const enrolled = await browser.call("/v1/dashboard/enrollment", {
        body: { token, credential: passkey.register(enrollmentOptions.body.options) },
      });
      expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
      return { browser, enrollmentOptions, enrolled };
    },
  });

  it("sets the session as __Host-cpay_session, Secure, for every path and without a Domain", () => {
    expect(given.enrolled.setCookies.join("\n")).toMatch(
      /^__Host-cpay_session=sess_test_[A-Za-z0-9_-]{43};/m,
    );
    const attributes = cookieAttributes(given.enrolled.setCookies, "__Host-cpay_session");
    expect(attributes).toEqual(expect.arrayContaining(["httponly", "samesite=strict", "path=/", "secure"]));
    expect(attributes?.some((attribute) => attribute.startsWith("domain"))).toBe(false);
    expect(given.enrolled.setCookies.some((line) => line.startsWith("cpay_session="))).toBe(false);
  });

  it("binds challenges with __Host-cpay_challenge, Secure, for every path and without a Domain", () => {
    const attributes = cookieAttributes(given.enrollmentOptions.setCookies, "__Host-cpay_challenge");
    expect(attributes).toEqual(
      expect.arrayContaining(["httponly", "samesite=strict", "path=/", "max-age=300", "secure"]),
    );
    expect(attributes?.some((attribute) => attribute.startsWith("domain"))).toBe(false);
  });

  it("reads the session from __Host-cpay_session only: the same value under the plain name is no session", async () => {
    const session = given.browser.cookies.get("__Host-cpay_session") as string;
    expect(session).toMatch(/^sess_test_/);
    expect((await given.browser.call("/v1/dashboard/session")).status).toBe(200);
    const planted = await given.browser.call("/v1/dashboard/session", {
      headers: { cookie: `cpay_session=${session}` },
    });
    expect(planted.status).toBe(401);
    expect(planted.body.error?.code).toBe("unauthorized");
  });

  it("clears __Host-cpay_session at sign-out", async () => {
    const csrf = given.enrolled.body.csrf_token as string;
    const out = await given.browser.call("/v1/dashboard/session", { method: "DELETE", csrf });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.setCookies[0]).toMatch(/^__Host-cpay_session=; .*Max-Age=0.*; Secure$/);
  });
});
