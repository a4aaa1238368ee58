/**
 * Commitment end to end: the indexer records at `confirmed`, and a transaction the chain no longer
 * knows when its slot is finalized is reverted — the transfer it confirmed becomes `failed`
 * (`failure_code` `reverted`) with `transfer.failed`, once.
 *
 * Neither test chain ever forks, so the fork is real transactions from elsewhere: world B (its own
 * chain, the same program and mint) makes owner transfers through its API; the indexer of world A
 * sees each of B's transactions, read through B's chain port with B's real program logs, at a
 * confirmed slot of a sibling fork of A's chain (support/forked-chain, layered over the indexer's
 * view of A's chain port). Both worlds are localnet processes with CPAY_TEST_CHAIN=rpc. A's
 * database has the transfer as A's API would have left it after submitting to that fork:
 * `submitted`, with B's transfer id and signature, sent by an account of A's whose wallet is the one
 * that signed on B (the indexer applies a record only to a row of the wallet that signed it, to the
 * row's recipient, in its mint). The indexer is the one writer of `confirmed` (A's is this suite's
 * own, over the fork), so only it moves the row. Then A's cluster abandons the fork and finalizes
 * past it (A's test clock produces the slots).
 */

import {
  checkFinality,
  indexerChainOver,
  type RunningIndexer,
  readCheckpoint,
  startIndexer,
} from "@cpay/indexer";
import type { ChainPort } from "@cpay/sdk/chain";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiWorld, startApiWorld, usdg, type WorldAccount } from "../support/api-world";
import { createForkedChain, type ForkedChain } from "./support/forked-chain";

const logger = pino({ level: "warn" });

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An owner transfer of `amount` USDG from alice to @bob, publicly, once its row is settled. */
async function settledTransfer(world: ApiWorld, alice: WorldAccount, amount: string) {
  const created = await alice.client.call("createTransfer", {
    body: { to: "@bob", amount, confidential: false },
  });
  const row = await until(`${created.transfer_id} to settle`, async () => {
    const current = await world.transferRow(created.transfer_id);
    return current.phase === "settled" ? current : null;
  });
  expect(row.status).toBe("confirmed");
  return row;
}

describe("indexer: a confirmed transaction the chain abandons is reverted at finalized", () => {
  let a: ApiWorld;
  let b: ApiWorld;
  let aAlice: WorldAccount;
  /** The fork's sender as an account of A: B's alice's wallet, which signed B's records. */
  let forkSenderId: string;
  /** B's transfers and the signatures of the transactions that carried them. */
  const onB: { id: string; signature: string }[] = [];
  /** A's own transfers (real on A's chain), as the indexer must leave them. */
  const realIds: string[] = [];
  /** The indexer's own port onto A's chain, under the fork layer. */
  let aPort: ChainPort;
  let chain: ForkedChain;
  let indexer: RunningIndexer;

  const db = () => a.service.context.db;
  const passContext = () => ({
    db: db(),
    clock: Date.now,
    usdgMint: chain.usdgMint,
    chain,
    logger,
  });
  const eventTypes = async (resourceId: string) => {
    const { events } = db().tables;
    const rows = await db().read((q) => q.select().from(events).where(eq(events.resourceId, resourceId)));
    return rows.map((row) => row.type).sort();
  };
  const indexedRows = async () => {
    const { indexedEvents } = db().tables;
    return db().read((q) => q.select().from(indexedEvents));
  };
  /** Lands `count` more of A's own transfers and lets the indexer take them in. */
  const realTransfers = async (count: number) => {
    for (let i = 0; i < count; i++) realIds.push((await settledTransfer(a, aAlice, "0.25")).id);
    await indexer.catchUp();
  };
  /** Writes B's transfer into A as A's API would have after submitting it to the fork. */
  const submittedOnFork = async (index: number) => {
    const { id, signature } = onB[index] as (typeof onB)[number];
    const bRow = await b.transferRow(id);
    await db().transaction((tx) =>
      tx
        .insert(db().tables.transfers)
        .values({
          ...bRow,
          accountId: forkSenderId,
          apiKeyId: aAlice.key.id,
          status: "pending",
          phase: "submitted",
          usageIncrement: null,
          confirmedAt: null,
        })
        .then(() => undefined),
    );
    const slot = await a.chain.getSlot("confirmed");
    await chain.fork(b.chain, signature, slot);
    return { id, signature, slot };
  };
  /** Abandons the fork, finalizes past it on A, and waits for the indexer's own finality check. */
  const abandonAndFinalize = async (fork: { id: string; signature: string }) => {
    chain.abandon(fork.signature);
    await a.testClock.advanceSlots(40);
    await until(`${fork.id} to be reverted`, async () => (await a.transferRow(fork.id)).status === "failed");
  };

  beforeAll(async () => {
    // B's own indexer (beside its service) confirms B's transfers; they are only read here.
    b = await startApiWorld();
    const [bAlice] = await Promise.all([b.account("alice"), b.account("bob")]);
    await b.fund(bAlice.account, { public: usdg(10) });
    for (const amount of ["1", "2", "3"]) {
      const row = await settledTransfer(b, bAlice, amount);
      const signature = row.txSignature as string;
      if ((await b.chain.getTransaction(signature, "confirmed")) === null) {
        throw new Error("B's transfer is not on B's chain");
      }
      onB.push({ id: row.id, signature });
    }

    // A's indexer is this suite's own, over the fork layer (started below, before A's first transfer).
    a = await startApiWorld({ indexer: false });
    [aAlice] = await Promise.all([a.account("alice"), a.account("bob")]);
    forkSenderId = `${bAlice.account.id}_on_b`;
    await db().transaction((tx) =>
      tx
        .insert(db().tables.accounts)
        .values({ ...bAlice.account, id: forkSenderId, handle: "@alice-on-b" })
        .then(() => undefined),
    );
    aPort = await a.openChain();
    chain = createForkedChain(indexerChainOver(aPort));
    indexer = startIndexer({
      db: db(),
      databaseUrl: a.service.context.config.databaseUrl,
      chain,
      logger,
      leaseMs: 1000,
      finalityMs: 200,
    });
    await until("the indexer to lead", async () => (await indexer.status()).leader);
    await a.fund(aAlice.account, { public: usdg(10) });
    realIds.push((await settledTransfer(a, aAlice, "0.5")).id);
    await indexer.catchUp();
  });

  afterAll(async () => {
    await indexer?.stop();
    await chain?.close();
    await aPort?.close();
    await a?.close();
    await b?.close();
  });

  it("Given B's real transfer transaction on a fork of A's chain, When the indexer catches up, Then the transfer A submitted to that fork is confirmed and transfer.confirmed fires once", async () => {
    // Given: the same program, so B's logs are A's program's logs
    expect(b.chain.programId).toBe(a.chain.programId);
    expect(await b.chain.getTransaction(onB[0]?.signature as string, "confirmed")).not.toBeNull();
    expect(await a.chain.getSignatureStatus(onB[0]?.signature as string)).toBeNull();
    const fork = await submittedOnFork(0);
    // ... and A's chain goes on after the forked slot
    await realTransfers(1);

    // Then
    const row = await a.transferRow(fork.id);
    expect(row).toMatchObject({ status: "confirmed", phase: "settled", failureCode: null });
    expect(row.txSignature).toBe(fork.signature);
    expect(await eventTypes(fork.id)).toEqual(["transfer.confirmed"]);
    const recorded = (await indexedRows()).filter((event) => event.signature === fork.signature);
    expect(
      recorded.map(({ event, state, resourceId, slot }) => ({ event, state, resourceId, slot })),
    ).toEqual([
      { event: "ServiceTransferRecorded", state: "confirmed", resourceId: fork.id, slot: Number(fork.slot) },
    ]);
    // ... and the checkpoint is past the forked transaction (A's later transfer)
    expect((await readCheckpoint(passContext()))?.slot).toBeGreaterThan(fork.slot);
  });

  it("When A's cluster abandons the fork and finalizes past its slot, Then the transfer is failed (reverted) with transfer.failed once, the fork's rows reverted and A's own finalized and unchanged", async () => {
    // Given A's own transfers and their events as the indexer recorded them
    const fork = { id: onB[0]?.id as string, signature: onB[0]?.signature as string };
    const realBefore = await Promise.all(realIds.map((id) => a.transferRow(id)));
    const realEventsBefore = await Promise.all(realIds.map(eventTypes));
    expect(realBefore.every((row) => row.status === "confirmed")).toBe(true);

    // When
    await abandonAndFinalize(fork);
    // (and every confirmed row at or below the finalized slot has been judged)
    const again = await checkFinality(passContext());

    // Then
    expect(again.reverted).toBe(0);
    expect(await a.transferRow(fork.id)).toMatchObject({
      status: "failed",
      phase: "settled",
      failureCode: "reverted",
      txSignature: fork.signature,
    });
    expect(await eventTypes(fork.id)).toEqual(["transfer.confirmed", "transfer.failed"]);
    const rows = await indexedRows();
    const forkRows = rows.filter((event) => event.signature === fork.signature);
    expect(forkRows.map((event) => event.state)).toEqual(["reverted"]);
    const finalizedSlot = Number(await a.chain.getSlot("finalized"));
    const real = rows.filter((event) => event.signature !== fork.signature);
    expect(real.length).toBeGreaterThan(0);
    expect(real.filter((event) => event.slot <= finalizedSlot).map((event) => event.state)).toEqual(
      real.filter((event) => event.slot <= finalizedSlot).map(() => "finalized"),
    );
    expect(await Promise.all(realIds.map((id) => a.transferRow(id)))).toEqual(realBefore);
    expect(await Promise.all(realIds.map(eventTypes))).toEqual(realEventsBefore);
  });

  it("When later passes run, Then the reverted transaction is not applied again: still failed, no new event", async () => {
    // Given the reverted transfer
    const fork = { id: onB[0]?.id as string, signature: onB[0]?.signature as string };
    // When A's chain goes on and the indexer catches up again
    await realTransfers(1);
    await indexer.catchUp();
    // Then
    expect(await a.transferRow(fork.id)).toMatchObject({ status: "failed", failureCode: "reverted" });
    expect(await eventTypes(fork.id)).toEqual(["transfer.confirmed", "transfer.failed"]);
    const forkRows = (await indexedRows()).filter((event) => event.signature === fork.signature);
    expect(forkRows.map((event) => event.state)).toEqual(["reverted"]);
    expect((await indexer.status()).lastError).toBeNull();
  });

  it("Given the forked transaction is the newest indexed (the checkpoint), When the fork is abandoned, Then indexing goes on from A's chain and the transfer stays failed with no new event", async () => {
    // Given
    const fork = await submittedOnFork(1);
    await indexer.catchUp();
    expect(await readCheckpoint(passContext())).toEqual({ slot: fork.slot, signature: fork.signature });
    expect((await a.transferRow(fork.id)).status).toBe("confirmed");
    // When
    await abandonAndFinalize(fork);
    await realTransfers(1);
    // Then
    const newest = realIds.at(-1) as string;
    expect(await readCheckpoint(passContext())).toMatchObject({
      signature: (await a.transferRow(newest)).txSignature,
    });
    // (sent to alice, and received by bob, one of A's accounts)
    expect(await eventTypes(newest)).toEqual([
      "transfer.confirmed",
      "transfer.confirmed",
      "transfer.initiated",
    ]);
    expect(await eventTypes(fork.id)).toEqual(["transfer.confirmed", "transfer.failed"]);
    expect(await a.transferRow(fork.id)).toMatchObject({ status: "failed", failureCode: "reverted" });
    const forkRows = (await indexedRows()).filter((event) => event.signature === fork.signature);
    expect(forkRows.map((event) => event.state)).toEqual(["reverted"]);
  });

  // Once the chain drops the checkpoint's transaction, getSignaturesForAddress ignores `until`; the
  // walk must still stop at the checkpoint's slot rather than re-index the whole history.
  it("Given the forked transaction is the checkpoint, When the fork is abandoned, Then the next pass indexes only the transactions newer than it (not the whole history again)", async () => {
    // Given
    const fork = await submittedOnFork(2);
    await indexer.catchUp();
    expect(await readCheckpoint(passContext())).toEqual({ slot: fork.slot, signature: fork.signature });
    const before = (await indexer.status()).indexed;
    // When
    await abandonAndFinalize(fork);
    await realTransfers(1);
    // Then: what is newer, plus the surviving chain's transactions of the dropped one's own slot
    // (on a real fork another block may fill that slot, never indexed), and nothing older.
    const fromForkSlot = (await chain.signaturesForProgram({ limit: 1000 })).filter(
      (entry) => entry.slot >= fork.slot,
    );
    expect(fromForkSlot.some((entry) => entry.slot > fork.slot)).toBe(true);
    expect((await indexer.status()).indexed - before).toBe(fromForkSlot.length);
  });
});
