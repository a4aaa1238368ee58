/**
 * Graceful shutdown: `close()` stops accepting new connections, lets the request in flight (a
 * confidential transfer, several transactions long) finish and answer, then stops the background
 * jobs and closes the database — nothing half-written, nothing lost.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { eventually } from "../support/eventually";

describe("graceful shutdown", () => {
  const given = apiSuite({ accounts: ["alice", "bob"], funds: { alice: { confidential: usdg(10) } } });

  it("finishes the transfer in flight, then refuses new connections", async () => {
    const inFlight = given.alice.client.call("createTransfer", { body: { to: "@bob", amount: "1" } });
    // Wait until the request has reached the use case (its row is written before the chain work).
    // (A condition, not a number of tries: after 200 rounds of 5 ms the old loop went on anyway,
    // closing the service before the request had reached it on a busy machine.)
    const { transfers } = given.world.service.context.db.tables;
    await eventually(
      () =>
        given.world.service.context.db.read((db) =>
          db.select().from(transfers).where(eq(transfers.accountId, given.alice.account.id)),
        ),
      (rows) => rows.length > 0,
      30_000,
      5,
    );
    const closing = given.world.service.close();
    const transfer = await inFlight;
    expect(transfer.status).toMatch(/^(pending|confirmed)$/);
    await closing;
    await expect(fetch(`${given.world.url}/v1/openapi.json`)).rejects.toThrow();
  });
});
