/**
 * The webhook contract builds the bodies the service writes: the envelope around the payload, keys
 * in the contract's order, and nothing else — a field the contract lacks (an amount) is refused.
 */
import { describe, expect, it } from "vitest";
import { buildWebhookEvent, type TWebhookEventPayload, ZWebhookEvent } from "./events";

const EVENT_ID = "evt_abcdefghijklmnopqrstuvwxyz";
const AT = "2030-01-02T03:04:05.678Z";
const payload: TWebhookEventPayload<"transfer.confirmed"> = {
  account: "@alice",
  direction: "sent",
  counterparty: "@bob",
  asset: "USDG",
  confidential: true,
  tx_signature: null,
  transfer_id: "tr_abcdefghijklmnopqrstuvwxyz",
};

describe("buildWebhookEvent", () => {
  it("Given a payload in any key order, When built, Then the body is the envelope around it in the contract's order", () => {
    const shuffled = Object.fromEntries(Object.entries(payload).reverse()) as typeof payload;

    const event = buildWebhookEvent("transfer.confirmed", EVENT_ID, shuffled, AT);

    expect(JSON.stringify(event)).toBe(
      '{"event":"transfer.confirmed","event_id":"evt_abcdefghijklmnopqrstuvwxyz","account":"@alice","direction":"sent","counterparty":"@bob","asset":"USDG","confidential":true,"tx_signature":null,"transfer_id":"tr_abcdefghijklmnopqrstuvwxyz","timestamp":"2030-01-02T03:04:05.678Z"}',
    );
    expect(ZWebhookEvent.parse(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it("Given a confidential transfer's payload carrying an amount, When built, Then it is refused", () => {
    const withAmount = { ...payload, amount: "12.50" };

    expect(() => buildWebhookEvent("transfer.confirmed", EVENT_ID, withAmount, AT)).toThrow(/amount/);
  });

  it("Given a payload of another event type, When built, Then it is refused", () => {
    const policy = {
      account: "@alice/bot",
      agent_account_id: "acct_x",
      policy_id: "policy_x",
      tx_signature: "5",
    };

    expect(() => buildWebhookEvent("transfer.failed", EVENT_ID, policy as never, AT)).toThrow();
    expect(() =>
      buildWebhookEvent("agent.policy.updated", "tr_abcdefghijklmnopqrstuvwxyz", policy, AT),
    ).toThrow();
  });
});
