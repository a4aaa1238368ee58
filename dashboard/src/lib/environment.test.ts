import { describe, expect, it } from "vitest";
import { environmentOfEnrollmentToken } from "./environment";

describe("the environment of an enrollment link's token", () => {
  const random = "A".repeat(43);
  it("is live only for an enr_live_ token of the full length", () => {
    expect(environmentOfEnrollmentToken(`enr_live_${random}`)).toBe("live");
    expect(environmentOfEnrollmentToken(`enr_test_${random}`)).toBe("test");
  });

  it("is test for a token of the old form, whatever its characters begin with", () => {
    expect(environmentOfEnrollmentToken(`enr_${random}`)).toBe("test");
    expect(environmentOfEnrollmentToken(`enr_live_${random.slice(5)}`)).toBe("test");
  });
});
