import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signWebhookBody, signWebhookV1, verifyWebhook } from "./signature";

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

  it("refuse a timestamp given beside the body-only signature, which does not cover it", () => {
    const signature = signWebhookBody(secret, body);
    expect(verifyWebhook({ secret, rawBody: body, signature, timestamp: "1800000000" })).toEqual({
      ok: false,
      reason: "unsigned_timestamp",
    });
  });

  it("check the signed timestamp of the Standard Webhooks signature against the tolerance", () => {
    const now = 1_800_000_000;
    const at = (timestamp: string) =>
      verifyWebhook({
        secret,
        rawBody: body,
        headers: {
          "webhook-id": "evt_x",
          "webhook-timestamp": timestamp,
          "webhook-signature": signWebhookV1(secret, { id: "evt_x", timestamp, body }),
        },
        nowSeconds: now,
      });
    expect(at(String(now - 299)).ok).toBe(true);
    expect(at(String(now - 301))).toEqual({ ok: false, reason: "stale_timestamp" });
    expect(at(String(now + 301)).ok).toBe(false);
    expect(at("yesterday").ok).toBe(false);
    expect(at("1e9").ok).toBe(false);
  });

  it("accept any one of several space-separated signatures (secret rotation), and no other", () => {
    const timestamp = "1800000000";
    const old = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;
    const fresh = `whsec_${Buffer.alloc(32, 2).toString("base64")}`;
    const both = [fresh, old].map((key) => signWebhookV1(key, { id: "evt_x", timestamp, body })).join(" ");
    const check = (key: string, signatures: string) =>
      verifyWebhook({
        secret: key,
        rawBody: body,
        headers: { "webhook-id": "evt_x", "webhook-timestamp": timestamp, "webhook-signature": signatures },
        nowSeconds: 1_800_000_001,
      });
    expect(check(old, both)).toEqual({ ok: true });
    expect(check(fresh, both)).toEqual({ ok: true });
    expect(check(`whsec_${Buffer.alloc(32, 3).toString("base64")}`, both).ok).toBe(false);
    expect(check(old, `v2,${both.split(" ")[1]?.slice(3)}`).ok).toBe(false);
  });

  it("sign v1 as Standard Webhooks does: base64 HMAC of id.timestamp.body under the decoded secret", () => {
    const key = Buffer.alloc(32, 9);
    const expected = createHmac("sha256", key).update(`evt_x.1800000000.${body}`).digest("base64");
    expect(
      signWebhookV1(`whsec_${key.toString("base64")}`, { id: "evt_x", timestamp: "1800000000", body }),
    ).toBe(`v1,${expected}`);
    // Secrets made before (URL-safe base64) decode to the same key.
    expect(
      signWebhookV1(`whsec_${key.toString("base64url")}`, { id: "evt_x", timestamp: "1800000000", body }),
    ).toBe(`v1,${expected}`);
  });
});
