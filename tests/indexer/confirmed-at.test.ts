/**
 * `confirmed_at` is when the confirmation was seen: the moment the indexer recorded the transfer's
 * transaction at `confirmed` commitment, in milliseconds (indexer/README.md, "Times"). It is never
 * before `created_at`, and an indexer that was not running when the chain confirmed a transfer
 * says when it caught up, not a time it never saw. The indexer here is stopped while the transfers
 * land and confirm, then started: both bounds are then exact, whatever the machine's speed.
 */

import { idFromBytes } from "@cpay/ledger/ids";
import { describe, expect, it } from "vitest";
import { createTestAgent } from "../api/support/agents";
import { usdg } from "../support/api-world";
import { landedTransaction } from "../support/chain-reads";
import { indexerSuite } from "./support/indexer-suite";
import { sendAgentSignedTransfer } from "./support/indexer-world";

/** An ISO 8601 UTC time with milliseconds, as the service writes every time. */
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("confirmed_at", () => {
  const given = indexerSuite({
    accounts: ["alice", "bob"],
    funds: { alice: { public: usdg(10) } },
    setUp: async ({ api, alice }) => {
      const solo = await createTestAgent(api, alice, "solo");
      await api.fund(solo.row, { public: usdg(10) });
      return { solo };
    },
  });
  it("Given transfers confirmed on chain while no indexer runs, When an indexer starts and records them, Then confirmed_at is when it did, in milliseconds, after created_at", async () => {
    // Given no indexer, a transfer through the API and one an agent signs itself (no row yet)
    await given.world.stopIndexer();
    const viaApi = await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "1", confidential: false },
    });
    const own = await sendAgentSignedTransfer(given.world.api, {
      agentAccountId: given.solo.row.id,
      to: given.bob.account,
      amount: usdg(2),
    });
    // ... both confirmed on chain (a later slot than the one they landed in)
    await landedTransaction(given.world.api.chain, viaApi.tx_signature ?? "");
    await landedTransaction(given.world.api.chain, own.signature);
    expect((await given.world.api.transferRow(viaApi.transfer_id)).status).toBe("pending");

    // When an indexer starts after that and catches up
    const indexerStartedAfter = Date.now();
    await given.world.restartIndexer();
    await given.world.catchUp();
    const caughtUpBy = Date.now();
    /** Checks a transfer is confirmed at a time, in milliseconds, while the indexer caught up; returns it. */
    const confirmedWhileCatchingUp = (status: string, confirmedAt: string | null): number => {
      expect(status).toBe("confirmed");
      expect(confirmedAt).toMatch(ISO_MS);
      const at = Date.parse(confirmedAt ?? "");
      expect(at).toBeGreaterThanOrEqual(indexerStartedAfter);
      expect(at).toBeLessThanOrEqual(caughtUpBy);
      return at;
    };

    // Then each is confirmed at the moment the indexer recorded it, with its milliseconds
    const detail = await given.alice.client.call("getTransfer", {
      params: { transfer_id: viaApi.transfer_id },
    });
    const confirmedAt = confirmedWhileCatchingUp(detail.status, detail.confirmed_at);
    expect(confirmedAt).toBeGreaterThan(Date.parse(detail.created_at));

    // ... and the agent's own transfer, found on chain, too: created at its block's time (the only
    // time the chain gives for it), confirmed when the indexer saw it, not before
    const found = await given.world.api.transferRow(idFromBytes("tr", own.transferId));
    const foundConfirmedAt = confirmedWhileCatchingUp(found.status, found.confirmedAt);
    expect(foundConfirmedAt).toBeGreaterThanOrEqual(Date.parse(found.createdAt));
  });
});
