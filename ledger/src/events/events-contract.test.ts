/**
 * Every event the ledger writes is one the webhook contract (`@cpay/sdk/api` `ZWebhookEvent`)
 * parses, byte for byte as stored: the ledger's writers are driven through each event type, and the
 * outbox rows they leave are read back. The key order of each type is pinned (receivers' signatures
 * cover the exact body), and no shape has room for an amount.
 */
import { randomBytes } from "node:crypto";
import { WEBHOOK_EVENT_TYPES, ZWebhookEvent } from "@cpay/sdk/api";
import { getAddressDecoder } from "@solana/kit";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordDecision } from "../approvals/record-decision";
import type { EventRow } from "../db/rows";
import { type RecordsWorld, someSignature, startRecordsWorld } from "../testing/records-world";
import { markHeld } from "../transfers/mark-held";
import { receivedTransferFact } from "../transfers/transfer-events";
import { markConfirmedIn, markFailed, markSubmitted } from "../transfers/transfer-transitions";
import { policyUpdatedFact } from "./policy-events";
import { recordEvent } from "./record-event";

const MOVEMENT = ["account", "direction", "counterparty", "asset", "confidential", "tx_signature"];
/** Each type's keys in the order the service has always sent them. */
const WIRE_KEYS: Record<string, readonly string[]> = {
  transfer: ["event", "event_id", ...MOVEMENT, "transfer_id", "timestamp"],
  "agent.transaction": ["event", "event_id", ...MOVEMENT, "transaction_id", "transfer_id", "timestamp"],
  "agent.policy": [
    "event",
    "event_id",
    "account",
    "agent_account_id",
    "policy_id",
    "tx_signature",
    "timestamp",
  ],
};
const wireKeysOf = (type: string) => WIRE_KEYS[type.slice(0, type.lastIndexOf("."))];

describe("the events the ledger writes", () => {
  let w: RecordsWorld;
  let rows: EventRow[];

  beforeAll(async () => {
    w = await startRecordsWorld();
    const usage = { apiKeyId: null, increment: null };
    const landed = async (id: string) => {
      const signature = someSignature();
      return markSubmitted(w.service, id, { signature, signatures: [signature], usage });
    };
    const hold = async (confidential: boolean) => {
      const row = await w.submitting(w.agent, { confidential });
      const signature = someSignature();
      await markHeld(w.service, row.id, {
        agent: w.agent,
        hold: {
          address: getAddressDecoder().decode(randomBytes(32)),
          requestedAt: 1_700_000_000n,
          expiresAt: 1_700_086_400n,
        },
        signature,
        signatures: [signature],
      });
      const { holds } = w.db.tables;
      const [held] = await w.db.read((q) => q.select().from(holds).where(eq(holds.transferId, row.id)));
      if (held === undefined) throw new Error("the hold was not written");
      return held;
    };

    // A public transfer, initiated and confirmed, paid to a service account.
    const paid = await w.submitting(w.owner);
    await landed(paid.id);
    const confirmed = await w.db.transaction((tx) =>
      markConfirmedIn(w.service, tx, paid.id, new Date().toISOString()),
    );
    await w.db.transaction((tx) => recordEvent(w.service, tx, receivedTransferFact(confirmed, w.merchant)));
    // A confidential one that failed before anything landed (no signature).
    const lost = await w.submitting(w.owner, { confidential: true });
    await markFailed(w.service, lost.id, { from: "submitting", failureCode: "expired", fireEvent: true });
    // An agent's confidential transfer held, then approved; a public one held, then rejected.
    await recordDecision(w.service, await hold(true), w.agent, {
      status: "approved",
      signature: someSignature(),
    });
    await recordDecision(w.service, await hold(false), w.agent, { status: "rejected", signature: null });
    // Its spend policy changed.
    await w.db.transaction((tx) => recordEvent(w.service, tx, policyUpdatedFact(w.agent, someSignature())));

    rows = await w.events();
  });
  afterAll(async () => {
    await w.close();
  });

  it("Given every writer driven, Then every event type was written", () => {
    expect(new Set(rows.map((row) => row.type))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
  });

  it("Then each stored body parses with the contract to exactly itself: nothing outside it, keys in the wire order", () => {
    for (const row of rows) {
      const event = ZWebhookEvent.parse(JSON.parse(row.payload));
      expect(JSON.stringify(event), row.type).toBe(row.payload);
      expect(event.event).toBe(row.type);
      expect(event.event_id).toBe(row.id);
      expect(Object.keys(event), row.type).toEqual(wireKeysOf(row.type));
    }
  });

  it("Then no event shape has a field for an amount, confidential or not", () => {
    for (const option of ZWebhookEvent.options) {
      expect(Object.keys(option.shape).filter((key) => /amount/i.test(key))).toEqual([]);
    }
    const confidential = rows.filter((row) => JSON.parse(row.payload).confidential === true);
    expect(confidential.map((row) => row.type).sort()).toEqual([
      "agent.transaction.approved",
      "agent.transaction.pending_approval",
      "transfer.failed",
      "transfer.initiated",
    ]);
    for (const row of confidential) expect(row.payload).not.toMatch(/amount/i);
  });
});
