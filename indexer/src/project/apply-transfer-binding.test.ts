import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AccountRow, TransferRow } from "@cpay/ledger";
import { type Database, openDatabase } from "@cpay/ledger/database";
import { idFromBytes } from "@cpay/ledger/ids";
import { findTokenAccount } from "@cpay/sdk/confidential";
import { generateKeyPairSigner } from "@solana/kit";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApplyContext } from "./apply-context";
import { applyTransactions } from "./apply-transaction";
import type { ObservedFact, TransferExecutedFact, TransferHeldFact } from "./observed-fact";

const newAddress = async () => (await generateKeyPairSigner()).address as string;

describe("a transfer fact against the row of its transfer id", () => {
  let dir: string;
  let db: Database;
  let ctx: ApplyContext;
  let usdgMint: string;
  let owner: AccountRow;
  let agent: AccountRow;
  let merchant: AccountRow;
  let slot = 1n;

  const account = async (handle: string, type: string, extra: Partial<AccountRow> = {}) => {
    const row: AccountRow = {
      id: `acct_${handle.replace(/\W/g, "")}`,
      handle,
      type,
      kycStatus: "verified",
      publicKey: await newAddress(),
      ownerAccountId: null,
      agentName: null,
      agentSigner: null,
      agentCustody: null,
      policyId: null,
      createdAt: new Date().toISOString(),
      ...extra,
    };
    await db.transaction((tx) =>
      tx
        .insert(db.tables.accounts)
        .values(row)
        .then(() => undefined),
    );
    return row;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "cpay-bind-"));
    db = await openDatabase(join(dir, "cpay.sqlite"));
    usdgMint = await newAddress();
    ctx = { db, clock: Date.now, usdgMint };
    owner = await account("@mallory", "personal");
    agent = await account("@mallory/bot", "agent", {
      ownerAccountId: owner.id,
      agentSigner: await newAddress(),
      agentCustody: "self",
    });
    merchant = await account("@merchant", "business");
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A `submitting` row of `sender` paying the merchant USDG publicly. */
  async function submittingRow(sender: AccountRow): Promise<TransferRow> {
    const row: TransferRow = {
      id: idFromBytes("tr", new Uint8Array(randomBytes(16))),
      accountId: sender.id,
      apiKeyId: null,
      fromHandle: sender.handle,
      to: merchant.handle,
      recipientAddress: merchant.publicKey,
      sealedDetails: null,
      asset: "USDG",
      confidential: false,
      status: "pending",
      phase: "submitting",
      txSignature: null,
      signatures: "[]",
      failureCode: null,
      usageIncrement: null,
      heldTransactionId: null,
      createdAt: new Date().toISOString(),
      confirmedAt: null,
    };
    await db.transaction((tx) =>
      tx
        .insert(db.tables.transfers)
        .values(row)
        .then(() => undefined),
    );
    return row;
  }

  /** The fact the row's own transfer would produce; `change` makes it someone else's. */
  async function factFor(
    row: TransferRow,
    sender: AccountRow,
    change: Partial<TransferExecutedFact> = {},
  ): Promise<TransferExecutedFact> {
    slot += 1n;
    return {
      kind: "transfer_executed",
      position: {
        signature: await newAddress(),
        slot,
        blockTime: 1_700_000_000n,
        instructionIndex: 0,
        eventIndex: 0,
        event: sender.type === "agent" ? "TransferExecuted" : "ServiceTransferRecorded",
      },
      transferId: row.id,
      by: sender.type === "agent" ? "agent" : "record",
      sender: sender.publicKey,
      source: await findTokenAccount(sender.publicKey, usdgMint),
      destination: await findTokenAccount(merchant.publicKey, usdgMint),
      recipient: merchant.publicKey,
      mint: usdgMint,
      confidential: false,
      fromHold: false,
      ...change,
    };
  }

  const apply = (fact: ObservedFact) =>
    applyTransactions(ctx, [
      { at: { signature: fact.position.signature, slot: fact.position.slot }, facts: [fact] },
    ]);
  const rowNow = async (id: string) =>
    (await db.read((q) => q.select().from(db.tables.transfers).where(eq(db.tables.transfers.id, id))))[0];
  const eventsOf = async (id: string) =>
    (await db.read((q) => q.select().from(db.tables.events))).filter((event) => event.resourceId === id);

  it("Given an agent's submitting row, When a fact with its id but another sender, destination, mint, or the agent's own record arrives, Then the row does not move and nothing fires", async () => {
    const row = await submittingRow(agent);
    const stranger = await account("@eve/bot", "agent", { agentSigner: await newAddress() });
    const elsewhere = await newAddress();
    const forged = [
      await factFor(row, agent, { sender: stranger.publicKey }),
      await factFor(row, agent, {
        destination: await findTokenAccount(elsewhere, usdgMint),
        recipient: elsewhere,
      }),
      await factFor(row, agent, { mint: await newAddress() }),
      await factFor(row, agent, { confidential: true }),
      await factFor(row, agent, { by: "record", sender: agent.agentSigner as string }),
      await factFor(row, agent, { by: "record" }),
    ];
    for (const fact of forged) await apply(fact);

    expect(await rowNow(row.id)).toMatchObject({ phase: "submitting", status: "pending", txSignature: null });
    expect(await eventsOf(row.id)).toEqual([]);

    await apply(await factFor(row, agent));
    expect(await rowNow(row.id)).toMatchObject({ phase: "settled", status: "confirmed" });
    const fired = (await eventsOf(row.id)).map((event) => `${event.type}:${event.accountId}`).sort();
    expect(fired).toEqual([
      `transfer.confirmed:${agent.id}`,
      `transfer.confirmed:${merchant.id}`,
      `transfer.initiated:${agent.id}`,
    ]);
  });

  it("Given an owner's submitting row, When a record with its id comes from another signer or another source, Then the row does not move; its wallet's own record confirms it", async () => {
    const row = await submittingRow(owner);
    const mallet = await newAddress();
    await apply(
      await factFor(row, owner, { sender: mallet, source: await findTokenAccount(mallet, usdgMint) }),
    );
    await apply(await factFor(row, owner, { source: await findTokenAccount(mallet, usdgMint) }));
    await apply(await factFor(row, owner, { by: "agent" }));
    expect(await rowNow(row.id)).toMatchObject({ phase: "submitting", status: "pending" });
    expect(await eventsOf(row.id)).toEqual([]);

    await apply(await factFor(row, owner));
    expect(await rowNow(row.id)).toMatchObject({ phase: "settled", status: "confirmed" });
  });

  /** The `TransactionHeld` fact of `sender`'s hold of the row's transfer; `change` alters the hold. */
  async function heldFactFor(
    row: TransferRow,
    sender: AccountRow,
    change: { agent?: string; destination?: string; recipient?: string; mint?: string } = {},
  ): Promise<TransferHeldFact> {
    slot += 1n;
    const pending = await newAddress();
    const agentAddress = change.agent ?? sender.publicKey;
    return {
      kind: "transfer_held",
      position: {
        signature: await newAddress(),
        slot,
        blockTime: 1_700_000_000n,
        instructionIndex: 0,
        eventIndex: 0,
        event: "TransactionHeld",
      },
      transferId: row.id,
      agent: agentAddress,
      pending,
      expiresAt: 1_700_086_400n,
      hold: {
        address: pending as never,
        agent: agentAddress as never,
        nonce: 0n,
        source: (await findTokenAccount(agentAddress, usdgMint)) as never,
        destination: (change.destination ?? (await findTokenAccount(merchant.publicKey, usdgMint))) as never,
        mint: (change.mint ?? usdgMint) as never,
        amount: 60_000_000n,
        requestedAt: 1_700_000_000n,
        expiresAt: 1_700_086_400n,
        rentPayer: (await newAddress()) as never,
        recipientHandle: null,
        transferId: new Uint8Array(16),
        confidential: false,
        contexts: null,
        provenPerTransactionLimit: null,
        provenDailyLimit: null,
        holdDay: null,
      },
      recipient: change.recipient ?? merchant.publicKey,
    };
  }

  it("Given an agent's submitting row, When another agent's hold, or a hold to another destination or mint, carries its id, Then the row is not held and no approval is listed", async () => {
    const row = await submittingRow(agent);
    const stranger = await account("@eve/bot2", "agent", { agentSigner: await newAddress() });
    const elsewhere = await newAddress();
    await apply(await heldFactFor(row, agent, { agent: stranger.publicKey }));
    await apply(
      await heldFactFor(row, agent, {
        destination: await findTokenAccount(elsewhere, usdgMint),
        recipient: elsewhere,
      }),
    );
    await apply(await heldFactFor(row, agent, { mint: await newAddress() }));

    expect(await rowNow(row.id)).toMatchObject({ phase: "submitting", heldTransactionId: null });
    expect(await db.read((q) => q.select().from(db.tables.agentTransactions))).toEqual([]);

    await apply(await heldFactFor(row, agent));
    expect(await rowNow(row.id)).toMatchObject({ phase: "held", status: "pending" });
    const held = await db.read((q) => q.select().from(db.tables.agentTransactions));
    expect(held.map((transaction) => transaction.transferId)).toEqual([row.id]);
  });
});
