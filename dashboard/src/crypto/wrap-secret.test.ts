import { describe, expect, it } from "vitest";
import { base64ToBytes } from "../lib/base64";
import { unwrapSecret, wrapSecret } from "./wrap-secret";

const exported = "AXJDu11b3mOFGOot/zYHHqUC6CIGLfx3fQ2EcnSybDeM";
const ids = { accountId: "acct_one", passkeyId: "pk_one" };

describe("the passkey-wrapped secret", () => {
  it("opens with the same PRF output for the same account and passkey, and is opaque", async () => {
    const prfOutput = crypto.getRandomValues(new Uint8Array(32));
    const wrapped = await wrapSecret({ exported, prfOutput, ...ids });
    expect(base64ToBytes(wrapped)).toHaveLength(1 + 12 + 44 + 16);
    expect(wrapped).not.toContain(exported.slice(0, 8));
    expect(await unwrapSecret({ wrapped, prfOutput, ...ids })).toBe(exported);
  });

  it("does not open with another passkey's output, for another account or passkey, or altered", async () => {
    const prfOutput = crypto.getRandomValues(new Uint8Array(32));
    const wrapped = await wrapSecret({ exported, prfOutput, ...ids });
    const other = crypto.getRandomValues(new Uint8Array(32));
    expect(await unwrapSecret({ wrapped, prfOutput: other, ...ids })).toBeNull();
    expect(await unwrapSecret({ wrapped, prfOutput, ...ids, accountId: "acct_two" })).toBeNull();
    expect(await unwrapSecret({ wrapped, prfOutput, ...ids, passkeyId: "pk_two" })).toBeNull();
    const bytes = base64ToBytes(wrapped);
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    const altered = btoa(String.fromCharCode(...bytes));
    expect(await unwrapSecret({ wrapped: altered, prfOutput, ...ids })).toBeNull();
    expect(await unwrapSecret({ wrapped: "not base64!", prfOutput, ...ids })).toBeNull();
  });
});
