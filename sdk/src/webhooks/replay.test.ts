/**
 * A captured delivery replayed later (finding: the timestamp header was not signed). The service
 * sends the spec's body-only `X-Service-Signature` with `X-Service-Timestamp`, and the Standard
 * Webhooks headers whose signature covers id, timestamp and body. An attacker who captured one
 * delivery resends it hours later with a fresh `X-Service-Timestamp`.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyWebhook } from "./signature";

const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const body = JSON.stringify({ event: "transfer.confirmed", event_id: "evt_x" });
const sentAt = 1_800_000_000;

/** The headers of one delivery as the service sends them (computed here independently). */
function captured(): Record<string, string> {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const v1 = createHmac("sha256", key).update(`evt_x.${sentAt}.${body}`).digest("base64");
  return {
    "x-service-signature": createHmac("sha256", secret).update(body).digest("hex"),
    "x-service-event-id": "evt_x",
    "x-service-timestamp": String(sentAt),
    "webhook-id": "evt_x",
    "webhook-timestamp": String(sentAt),
    "webhook-signature": `v1,${v1}`,
  };
}

describe("a captured delivery replayed three hours later", () => {
  const later = sentAt + 3 * 60 * 60;

  it("given a fresh X-Service-Timestamp, is refused by the verifier as documented for it", () => {
    const headers: Record<string, string> = { ...captured(), "x-service-timestamp": String(later) };
    // The call shape the SDK documented: the spec signature plus the (unsigned) timestamp header.
    const verdict = verifyWebhook({
      secret,
      rawBody: body,
      signature: headers["x-service-signature"],
      timestamp: headers["x-service-timestamp"],
      nowSeconds: later,
    });
    expect(verdict.ok).toBe(false);
  });

  it("given all its headers with only the timestamps refreshed or stripped, is refused", () => {
    const refreshed = {
      ...captured(),
      "x-service-timestamp": String(later),
      "webhook-timestamp": String(later),
    };
    expect(verifyWebhook({ secret, rawBody: body, headers: refreshed, nowSeconds: later })).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
    const stale = { ...captured(), "x-service-timestamp": String(later) };
    expect(verifyWebhook({ secret, rawBody: body, headers: stale, nowSeconds: later })).toEqual({
      ok: false,
      reason: "stale_timestamp",
    });
    const stripped: Record<string, string> = { ...captured(), "x-service-timestamp": String(later) };
    delete stripped["webhook-signature"];
    expect(verifyWebhook({ secret, rawBody: body, headers: stripped, nowSeconds: later }).ok).toBe(false);
  });

  it("when fresh, verifies by its signed headers", () => {
    expect(verifyWebhook({ secret, rawBody: body, headers: captured(), nowSeconds: sentAt + 5 })).toEqual({
      ok: true,
    });
  });
});
