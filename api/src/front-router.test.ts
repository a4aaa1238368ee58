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

  it("follows the session cookie's prefix without one", () => {
    expect(isLiveRequest({ cookie: "theme=dark; cpay_session=sess_live_x" })).toBe(true);
    expect(isLiveRequest({ cookie: "cpay_session=sess_test_x" })).toBe(false);
    expect(isLiveRequest({ cookie: "other_session=sess_live_x" })).toBe(false);
    expect(isLiveRequest({})).toBe(false);
  });
});
