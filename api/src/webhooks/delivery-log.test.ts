import { describe, expect, it } from "vitest";
import { deliveryView } from "./delivery-log";
import type { DeliveryRow } from "./subscription-view";

const row = (history: unknown[]): DeliveryRow => ({
  id: "dlv_1",
  subscriptionId: "wh_1",
  eventId: "evt_1",
  state: "queued",
  attempts: history.length,
  nextAttemptAt: "2026-11-25T00:00:00.000Z",
  lastStatusCode: null,
  history: JSON.stringify(history),
  createdAt: "2026-11-25T00:00:00.000Z",
  updatedAt: "2026-11-25T00:00:00.000Z",
});

describe("the delivery log", () => {
  it("given attempts recorded with a socket's own message, never shows it (it can name internal addresses)", () => {
    const view = deliveryView(
      row([
        { at: "2026-11-25T00:00:00.000Z", status_code: null, error: "connect ECONNREFUSED 10.1.2.3:8080" },
        { at: "2026-11-25T00:00:10.000Z", status_code: null, error: "timeout" },
        { at: "2026-11-25T00:00:20.000Z", status_code: 500, error: null },
      ]),
      "transfer.initiated",
    );
    expect(JSON.stringify(view)).not.toContain("10.1.2.3");
    expect(view.history.map((attempt) => attempt.error)).toEqual(["connection_failed", "timeout", null]);
  });
});
