import { describe, expect, it } from "vitest";
import { nearMisses } from "../keys/bearer-secret.test-support";
import {
  cookieOf,
  csrfTokenMatches,
  csrfTokenOf,
  environmentOfEnrollmentToken,
  environmentOfSessionToken,
  generateEnrollmentToken,
  generateSessionToken,
  hashToken,
} from "./secret-tokens";

describe("the dashboard's secret tokens", () => {
  it("are a prefix and 43 base64url characters, stored as SHA-256 hashes that do not contain them", () => {
    const session = generateSessionToken("test");
    expect(session).toMatch(/^sess_test_[A-Za-z0-9_-]{43}$/);
    expect(environmentOfSessionToken(session)).toBe("test");
    expect(environmentOfSessionToken(generateSessionToken("live"))).toBe("live");
    const enrollment = generateEnrollmentToken("live");
    expect(enrollment).toMatch(/^enr_live_[A-Za-z0-9_-]{43}$/);
    expect(environmentOfEnrollmentToken(enrollment)).toBe("live");
    expect(environmentOfEnrollmentToken(generateEnrollmentToken("test"))).toBe("test");
    expect(hashToken(session)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(session)).not.toContain(session.slice(10));
    for (const bad of [...nearMisses(session), session.replace("sess_", "svc_")]) {
      expect(environmentOfSessionToken(bad)).toBeNull();
    }
    for (const bad of [...nearMisses(enrollment), `enr_main_${"a".repeat(43)}`]) {
      expect(environmentOfEnrollmentToken(bad)).toBeNull();
    }
  });

  it("read an enrollment token of the old form (no environment) as the test environment's", () => {
    // Links handed out before tokens named their environment stay valid for 24 h.
    const random = generateEnrollmentToken("test").slice("enr_test_".length);
    expect(environmentOfEnrollmentToken(`enr_${random}`)).toBe("test");
    // Whatever its 43 characters begin with: the length tells the two forms apart.
    expect(environmentOfEnrollmentToken(`enr_live_${random.slice(5)}`)).toBe("test");
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

  it("read a cookie from the Cookie header by its exact name, among other cookies", () => {
    expect(cookieOf("a=1; cpay_session=sess_test_x; b=2", "cpay_session")).toBe("sess_test_x");
    expect(cookieOf("xcpay_session=sess_test_x", "cpay_session")).toBeNull();
    expect(cookieOf("cpay_session=sess_test_x", "__Host-cpay_session")).toBeNull();
    expect(cookieOf("__Host-cpay_session=sess_test_x", "cpay_session")).toBeNull();
    expect(cookieOf(undefined, "cpay_session")).toBeNull();
  });
});
