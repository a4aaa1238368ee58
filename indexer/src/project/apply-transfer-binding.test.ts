import { findTokenAccount } from "@cpay/sdk/confidential";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ApplyWorld, newAddress, startApplyWorld } from "./testing/apply-world";

describe("a transfer fact against the row of its transfer id", () => {
  let w: ApplyWorld;

  beforeEach(async () => {
    w = await startApplyWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it("Given an agent's submitting row, When a fact with its id but another sender, destination, mint, or the agent's own record arrives, Then the row does not move and nothing fires", async () => {
    const row = await w.submittingRow(w.agent);
    const stranger = await w.account("@eve/bot", "agent", { agentSigner: await newAddress() });
    const elsewhere = await newAddress();
    const forged = [
      await w.factFor(row, w.agent, { sender: stranger.publicKey }),
      await w.factFor(row, w.agent, {
        destination: await findTokenAccount(elsewhere, w.usdgMint),
        recipient: elsewhere,
      }),
      await w.factFor(row, w.agent, { mint: await newAddress() }),
      await w.factFor(row, w.agent, { confidential: true }),
      await w.factFor(row, w.agent, { by: "record", sender: w.agent.agentSigner as string }),
      await w.factFor(row, w.agent, { by: "record" }),
    ];
    for (const fact of forged) await w.apply(fact);

    expect(await w.rowNow(row.id)).toMatchObject({
      phase: "submitting",
      status: "pending",
      txSignature: null,
    });
    expect(await w.eventsOf(row.id)).toEqual([]);

    await w.apply(await w.factFor(row, w.agent));
    expect(await w.rowNow(row.id)).toMatchObject({ phase: "settled", status: "confirmed" });
    const fired = (await w.eventsOf(row.id)).map((event) => `${event.type}:${event.accountId}`).sort();
    expect(fired).toEqual([
      `transfer.confirmed:${w.agent.id}`,
      `transfer.confirmed:${w.merchant.id}`,
      `transfer.initiated:${w.agent.id}`,
    ]);
  });

  it("Given an owner's submitting row, When a record with its id comes from another signer or another source, Then the row does not move; its wallet's own record confirms it", async () => {
    const row = await w.submittingRow(w.owner);
    const mallet = await newAddress();
    await w.apply(
      await w.factFor(row, w.owner, { sender: mallet, source: await findTokenAccount(mallet, w.usdgMint) }),
    );
    await w.apply(await w.factFor(row, w.owner, { source: await findTokenAccount(mallet, w.usdgMint) }));
    await w.apply(await w.factFor(row, w.owner, { by: "agent" }));
    expect(await w.rowNow(row.id)).toMatchObject({ phase: "submitting", status: "pending" });
    expect(await w.eventsOf(row.id)).toEqual([]);

    await w.apply(await w.factFor(row, w.owner));
    expect(await w.rowNow(row.id)).toMatchObject({ phase: "settled", status: "confirmed" });
  });

  it("Given an agent's submitting row, When another agent's hold, or a hold to another destination or mint, carries its id, Then the row is not held and no approval is listed", async () => {
    const row = await w.submittingRow(w.agent);
    const stranger = await w.account("@eve/bot2", "agent", { agentSigner: await newAddress() });
    const elsewhere = await newAddress();
    await w.apply(await w.heldFactFor(row, w.agent, { agent: stranger.publicKey }));
    await w.apply(
      await w.heldFactFor(row, w.agent, {
        destination: await findTokenAccount(elsewhere, w.usdgMint),
        recipient: elsewhere,
      }),
    );
    await w.apply(await w.heldFactFor(row, w.agent, { mint: await newAddress() }));

    expect(await w.rowNow(row.id)).toMatchObject({ phase: "submitting", holdId: null });
    expect(await w.db.read((q) => q.select().from(w.db.tables.holds))).toEqual([]);

    await w.apply(await w.heldFactFor(row, w.agent));
    expect(await w.rowNow(row.id)).toMatchObject({ phase: "held", status: "pending" });
    const held = await w.db.read((q) => q.select().from(w.db.tables.holds));
    expect(held.map((transaction) => transaction.transferId)).toEqual([row.id]);
  });
});
