import { describe, expect, it } from "vitest";
import { isLiveRequest } from "./front-router";

describe("the front router's choice of environment", () => {
  it("follows the API key's prefix when there is an Authorization header, whatever the cookie", () => {
    expect(isLiveRequest({ authorization: "Bearer svc_live_x" })).toBe(true);
    expect(isLiveRequest({ authorization: "Bearer svc_test_x", cookie: "cpay_session=sess_live_x" })).toBe(
      false,
    );
    expect(isLiveRequest({ authorization: "", cookie: "cpay_session=sess_live_x" })).toBe(false);
  });

  it("follows the X-Cpay-Environment header without an Authorization header, over the cookie", () => {
    expect(isLiveRequest({ "x-cpay-environment": "live" })).toBe(true);
    expect(isLiveRequest({ "x-cpay-environment": "live", cookie: "cpay_session=sess_test_x" })).toBe(true);
    expect(isLiveRequest({ "x-cpay-environment": "test", cookie: "cpay_session=sess_live_x" })).toBe(false);
    // A value other than live goes to the test app, which refuses it (400).
    expect(isLiveRequest({ "x-cpay-environment": "LIVE", cookie: "cpay_session=sess_live_x" })).toBe(false);
    expect(isLiveRequest({ "x-cpay-environment": "" })).toBe(false);
  });

  it("lets an Authorization header win over the X-Cpay-Environment header", () => {
    expect(isLiveRequest({ authorization: "Bearer svc_test_x", "x-cpay-environment": "live" })).toBe(false);
    expect(isLiveRequest({ authorization: "Bearer svc_live_x", "x-cpay-environment": "test" })).toBe(true);
  });

  it("follows the session cookie's prefix without either", () => {
    expect(isLiveRequest({ cookie: "theme=dark; cpay_session=sess_live_x" })).toBe(true);
    expect(isLiveRequest({ cookie: "cpay_session=sess_test_x" })).toBe(false);
    // The session cookie's name under an https dashboard.
    expect(isLiveRequest({ cookie: "theme=dark; __Host-cpay_session=sess_live_x" })).toBe(true);
    expect(isLiveRequest({ cookie: "__Host-cpay_session=sess_test_x" })).toBe(false);
    expect(isLiveRequest({ cookie: "other_session=sess_live_x" })).toBe(false);
    expect(isLiveRequest({})).toBe(false);
  });
});
