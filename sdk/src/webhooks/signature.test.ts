import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signWebhookBody, verifyWebhook } from "./signature";

const secret = "whsec_test_0123456789abcdef";
const body = JSON.stringify({ event: "transfer.confirmed", event_id: "evt_x", tx_signature: "5abc" });

describe("webhook signatures", () => {
  it("are the lowercase hex HMAC-SHA256 of the raw body under the secret", () => {
    const signature = signWebhookBody(secret, body);
    expect(signature).toBe(createHmac("sha256", secret).update(body).digest("hex"));
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it("verify with the secret, and fail with any other secret or any changed body", () => {
    const signature = signWebhookBody(secret, body);
    expect(verifyWebhook({ secret, rawBody: body, signature })).toEqual({ ok: true });
    expect(verifyWebhook({ secret: `${secret}x`, rawBody: body, signature })).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (changed) => {
        fc.pre(changed !== body);
        expect(verifyWebhook({ secret, rawBody: changed, signature }).ok).toBe(false);
      }),
    );
  });

  it("refuse a missing, truncated or padded signature without throwing", () => {
    const signature = signWebhookBody(secret, body);
    expect(verifyWebhook({ secret, rawBody: body, signature: undefined })).toEqual({
      ok: false,
      reason: "missing_signature",
    });
    for (const bad of [signature.slice(1), `${signature}00`, "zz", "💥"]) {
      expect(verifyWebhook({ secret, rawBody: body, signature: bad }).ok).toBe(false);
    }
    expect(verifyWebhook({ secret, rawBody: body, signature: signature.toUpperCase() }).ok).toBe(true);
  });

  it("refuse a stale or malformed timestamp when one is checked", () => {
    const signature = signWebhookBody(secret, body);
    const now = 1_800_000_000;
    const at = (timestamp: string) =>
      verifyWebhook({ secret, rawBody: body, signature, timestamp, nowSeconds: now });
    expect(at(String(now - 299)).ok).toBe(true);
    expect(at(String(now - 301))).toEqual({ ok: false, reason: "stale_timestamp" });
    expect(at(String(now + 301)).ok).toBe(false);
    expect(at("yesterday").ok).toBe(false);
  });
});
