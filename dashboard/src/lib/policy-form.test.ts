import { describe, expect, it } from "vitest";
import { checkPolicy, EMPTY_POLICY } from "./policy-form";

const valid = {
  ...EMPTY_POLICY,
  daily_limit_usdg: "1000",
  per_transaction_limit_usdg: "250.5",
  hitl_threshold_usdg: "100",
  allowed_recipients: "@merchant, @shop",
};

describe("the spend-policy form", () => {
  it("builds the API's policy body from a valid form", () => {
    const { policy, problems } = checkPolicy(valid);
    expect(problems).toEqual({});
    expect(policy).toEqual({
      daily_limit_usdg: "1000",
      per_transaction_limit_usdg: "250.5",
      hitl_threshold_usdg: "100",
      assets: ["USDG"],
      allowed_recipients: ["@merchant", "@shop"],
      active_hours: "00:00-00:00",
      approval_window_seconds: 86400,
    });
  });

  it("names each field the API would refuse", () => {
    const { problems } = checkPolicy({
      ...valid,
      daily_limit_usdg: "1.1234567",
      hitl_threshold_usdg: "",
      assets: "USDG, USDG",
      allowed_recipients: Array.from({ length: 17 }, (_, i) => `@r${i}`).join(","),
      active_hours: "24:00-01:00",
      approval_window_seconds: "604801",
    });
    expect(Object.keys(problems).sort()).toEqual([
      "active_hours",
      "allowed_recipients",
      "approval_window_seconds",
      "assets",
      "daily_limit_usdg",
      "hitl_threshold_usdg",
    ]);
  });
});
