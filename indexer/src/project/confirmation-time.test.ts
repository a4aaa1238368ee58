/**
 * The times the indexer stamps: `confirmed_at` (and a hold's `decided_at` when the indexer records
 * the approval first) is when it saw the transaction at confirmed, to the millisecond, never before
 * `created_at`; a transfer found on chain was made at its block's time, never after it was seen.
 * The indexer's clock is the test's.
 */
import { randomBytes } from "node:crypto";
import { idFromBytes } from "@cpay/ledger/ids";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ApplyWorld, BLOCK_TIME, startApplyWorld } from "./testing/apply-world";

const iso = (ms: number) => new Date(ms).toISOString();
/** 250 ms into the block's second: the row was made within the second the chain dates the block. */
const CREATED = Number(BLOCK_TIME) * 1000 + 250;

describe("the times the indexer records", () => {
  let w: ApplyWorld;
  let now: number;

  beforeEach(async () => {
    now = CREATED;
    w = await startApplyWorld(() => now);
  });
  afterEach(async () => {
    await w.close();
  });

  it("Given a row created within its block's second, When the indexer sees the transfer 1.234 s later, Then confirmed_at is that moment, not the creation time nor a whole second", async () => {
    const row = await w.submittingRow(w.agent, { createdAt: iso(CREATED) });
    now = CREATED + 1_234;
    await w.apply(await w.factFor(row, w.agent));
    expect(await w.rowNow(row.id)).toMatchObject({
      status: "confirmed",
      createdAt: iso(CREATED),
      confirmedAt: iso(CREATED + 1_234),
    });
  });

  it("Given a row whose created_at another process's clock wrote ahead of the indexer's, When the indexer confirms it, Then confirmed_at is created_at, never before", async () => {
    const row = await w.submittingRow(w.agent, { createdAt: iso(CREATED) });
    now = CREATED - 5_000;
    await w.apply(await w.factFor(row, w.agent));
    expect((await w.rowNow(row.id))?.confirmedAt).toBe(iso(CREATED));
  });

  it("Given an agent's transfer with no row, When the indexer finds it, Then it was created at its block's time and confirmed when seen; a block dated after that moment is not believed", async () => {
    const someRow = await w.submittingRow(w.agent);
    const earlier = idFromBytes("tr", new Uint8Array(randomBytes(16)));
    now = CREATED + 700;
    await w.apply(await w.factFor(someRow, w.agent, { transferId: earlier }));
    expect(await w.rowNow(earlier)).toMatchObject({
      status: "confirmed",
      createdAt: iso(Number(BLOCK_TIME) * 1000),
      confirmedAt: iso(CREATED + 700),
    });

    // A block the validators' clocks date a minute ahead of the indexer's
    const ahead = idFromBytes("tr", new Uint8Array(randomBytes(16)));
    const fact = await w.factFor(someRow, w.agent, { transferId: ahead });
    await w.apply({ ...fact, position: { ...fact.position, blockTime: BLOCK_TIME + 60n } });
    expect(await w.rowNow(ahead)).toMatchObject({
      createdAt: iso(CREATED + 700),
      confirmedAt: iso(CREATED + 700),
    });
  });

  it("Given a held transfer, When the indexer is first to see its approval execute, Then the hold's decided_at and the transfer's confirmed_at are the same moment it saw them", async () => {
    const row = await w.submittingRow(w.agent, { createdAt: iso(CREATED) });
    await w.apply(await w.heldFactFor(row, w.agent));
    now = CREATED + 42_001;
    await w.apply(await w.factFor(row, w.agent, { fromHold: true }));

    expect(await w.rowNow(row.id)).toMatchObject({ status: "confirmed", confirmedAt: iso(CREATED + 42_001) });
    const [held] = await w.db.read((q) => q.select().from(w.db.tables.holds));
    expect(held).toMatchObject({ status: "approved", decidedAt: iso(CREATED + 42_001) });
  });
});
