/** A verified delivery comes back as its parsed event; nothing unverified or off-contract does. */
import { describe, expect, it } from "vitest";
import { signWebhookV1 } from "./signature";
import { verifyWebhookEvent } from "./verify-event";

const secret = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;
const sentAt = "1800000000";
const event = {
  event: "agent.policy.updated",
  event_id: "evt_abcdefghijklmnopqrstuvwxyz",
  account: "@alice/bot",
  agent_account_id: "acct_abcdefghijklmnopqrstuvwxyz",
  policy_id: "policy_abcdefghijklmnopqrstuvwxyz",
  tx_signature: "5".repeat(88),
  timestamp: "2027-01-15T08:00:00.000Z",
};

/** `body` as the service delivers it: the Standard Webhooks headers signed under `secret`. */
function delivered(body: string) {
  const headers = {
    "webhook-id": event.event_id,
    "webhook-timestamp": sentAt,
    "webhook-signature": signWebhookV1(secret, { id: event.event_id, timestamp: sentAt, body }),
  };
  return { secret, rawBody: body, headers, nowSeconds: Number(sentAt) + 1 };
}

describe("verifyWebhookEvent", () => {
  it("Given a signed delivery, When verified, Then it returns the event as the contract parses it", () => {
    const body = JSON.stringify(event);

    expect(verifyWebhookEvent(delivered(body))).toEqual({ ok: true, event });
    expect(verifyWebhookEvent({ ...delivered(body), rawBody: new TextEncoder().encode(body) })).toEqual({
      ok: true,
      event,
    });
  });

  it("Given a tampered body, When verified, Then the signature refuses it before anything is parsed", () => {
    const verdict = verifyWebhookEvent({ ...delivered(JSON.stringify(event)), rawBody: "not json" });

    expect(verdict).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("Given a signed body the contract does not describe, When verified, Then it is invalid_event", () => {
    for (const body of ["not json", JSON.stringify({ ...event, event: "agent.deleted" }), "[]"]) {
      expect(verifyWebhookEvent(delivered(body)), body).toEqual({ ok: false, reason: "invalid_event" });
    }
  });
});
