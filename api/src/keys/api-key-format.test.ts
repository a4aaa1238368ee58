import { describe, expect, it } from "vitest";
import { environmentOfKey, generateApiKey, hashApiKey } from "./api-key-format";
import { nearMisses } from "./bearer-secret.test-support";

describe("API keys", () => {
  it("are svc_test_/svc_live_ + 43 base64url characters, hashed for storage", () => {
    const test = generateApiKey("test");
    expect(test.value).toMatch(/^svc_test_[A-Za-z0-9_-]{43}$/);
    expect(test.hash).toBe(hashApiKey(test.value));
    expect(test.hash).not.toContain(test.value.slice(9));
    expect(test.last4).toBe(test.value.slice(-4));
    expect(environmentOfKey(generateApiKey("live").value)).toBe("live");
  });

  it("recognise only well-formed keys", () => {
    const value = generateApiKey("test").value;
    expect(environmentOfKey(value)).toBe("test");
    for (const bad of [...nearMisses(value), value.replace("svc_", "sk_"), ` ${value}`]) {
      expect(environmentOfKey(bad)).toBeNull();
    }
  });
});
