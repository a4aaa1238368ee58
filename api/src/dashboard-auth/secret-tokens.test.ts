import { describe, expect, it } from "vitest";
import {
  csrfTokenMatches,
  csrfTokenOf,
  environmentOfSessionToken,
  generateEnrollmentToken,
  generateSessionToken,
  hashToken,
  isEnrollmentToken,
  sessionCookieOf,
} from "./secret-tokens";

describe("the dashboard's secret tokens", () => {
  it("are a prefix and 43 base64url characters, stored as SHA-256 hashes that do not contain them", () => {
    const session = generateSessionToken("test");
    expect(session).toMatch(/^sess_test_[A-Za-z0-9_-]{43}$/);
    expect(environmentOfSessionToken(session)).toBe("test");
    expect(environmentOfSessionToken(generateSessionToken("live"))).toBe("live");
    const enrollment = generateEnrollmentToken();
    expect(isEnrollmentToken(enrollment)).toBe(true);
    expect(hashToken(session)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(session)).not.toContain(session.slice(10));
    for (const bad of [
      "",
      "sess_test_",
      `${session}x`,
      session.slice(0, -1),
      session.replace("sess_", "svc_"),
    ]) {
      expect(environmentOfSessionToken(bad)).toBeNull();
    }
    expect(isEnrollmentToken(`${enrollment}x`)).toBe(false);
  });

  it("derive one CSRF token per session, matched exactly", () => {
    const session = generateSessionToken("test");
    const csrf = csrfTokenOf(session);
    expect(csrf).toBe(csrfTokenOf(session));
    expect(csrf).not.toBe(csrfTokenOf(generateSessionToken("test")));
    expect(csrfTokenMatches(session, csrf)).toBe(true);
    for (const bad of [undefined, "", csrf.slice(1), `${csrf}x`, csrfTokenOf(generateSessionToken("test"))]) {
      expect(csrfTokenMatches(session, bad)).toBe(false);
    }
  });

  it("read the session from the Cookie header among other cookies", () => {
    expect(sessionCookieOf("a=1; cpay_session=sess_test_x; b=2")).toBe("sess_test_x");
    expect(sessionCookieOf("xcpay_session=sess_test_x")).toBeNull();
    expect(sessionCookieOf(undefined)).toBeNull();
  });
});
