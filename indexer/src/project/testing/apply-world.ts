/**
 * A database with three accounts (an owner, its agent, a merchant) and the facts their transfers
 * produce, for the tests of applying facts beside this folder: no chain, the indexer's clock given
 * by the test. Test-only; nothing in the package imports it.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AccountRow, submittingTransferRow, type TransferRow } from "@cpay/ledger";
import { type Database, openDatabase } from "@cpay/ledger/database";
import { idFromBytes } from "@cpay/ledger/ids";
import { accountRowOf } from "@cpay/ledger/testing";
import { findTokenAccount } from "@cpay/sdk/confidential";
import { generateKeyPairSigner } from "@solana/kit";
import { eq } from "drizzle-orm";
import type { ApplyContext } from "../apply-context";
import { applyTransactions } from "../apply-transaction";
import type { ObservedFact, TransferExecutedFact, TransferHeldFact } from "../observed-fact";

export const newAddress = async () => (await generateKeyPairSigner()).address as string;

/** The block time every fact here carries unless told otherwise (unix seconds). */
export const BLOCK_TIME = 1_700_000_000n;

export interface ApplyWorld {
  readonly db: Database;
  readonly ctx: ApplyContext;
  readonly usdgMint: string;
  readonly owner: AccountRow;
  readonly agent: AccountRow;
  readonly merchant: AccountRow;
  account(handle: string, type: string, extra?: Partial<AccountRow>): Promise<AccountRow>;
  /** A `submitting` row of `sender` paying the merchant USDG publicly. */
  submittingRow(sender: AccountRow, extra?: Partial<TransferRow>): Promise<TransferRow>;
  /** The fact the row's own transfer would produce; `change` makes it someone else's. */
  factFor(
    row: TransferRow,
    sender: AccountRow,
    change?: Partial<TransferExecutedFact>,
  ): Promise<TransferExecutedFact>;
  /** The `TransactionHeld` fact of `sender`'s hold of the row's transfer; `change` alters the hold. */
  heldFactFor(
    row: TransferRow,
    sender: AccountRow,
    change?: { agent?: string; destination?: string; recipient?: string; mint?: string },
  ): Promise<TransferHeldFact>;
  /** Applies one fact as the indexer applies a transaction of it. */
  apply(fact: ObservedFact): Promise<void>;
  rowNow(id: string): Promise<TransferRow | undefined>;
  eventsOf(id: string): Promise<{ type: string; accountId: string }[]>;
  close(): Promise<void>;
}

/** Opens the world; `clock` is the indexer's (what it stamps on what it records). */
export async function startApplyWorld(clock: () => number = Date.now): Promise<ApplyWorld> {
  const dir = mkdtempSync(join(tmpdir(), "cpay-apply-"));
  const db = await openDatabase(join(dir, "cpay.sqlite"));
  const usdgMint = await newAddress();
  const ctx: ApplyContext = { db, clock, usdgMint };
  let slot = 1n;

  const account = async (handle: string, type: string, extra: Partial<AccountRow> = {}) => {
    const id = `acct_${handle.replace(/\W/g, "")}`;
    const row = accountRowOf({ id, handle, type, publicKey: await newAddress(), ...extra });
    await db.transaction((tx) =>
      tx
        .insert(db.tables.accounts)
        .values(row)
        .then(() => undefined),
    );
    return row;
  };
  const owner = await account("@mallory", "personal");
  const agent = await account("@mallory/bot", "agent", {
    ownerAccountId: owner.id,
    agentSigner: await newAddress(),
    agentCustody: "self",
  });
  const merchant = await account("@merchant", "business");
  const position = async (event: string) => {
    slot += 1n;
    return {
      signature: await newAddress(),
      slot,
      blockTime: BLOCK_TIME,
      instructionIndex: 0,
      eventIndex: 0,
      event,
    };
  };

  return {
    db,
    ctx,
    usdgMint,
    owner,
    agent,
    merchant,
    account,
    async submittingRow(sender, extra = {}) {
      const row: TransferRow = {
        ...submittingTransferRow({
          id: idFromBytes("tr", new Uint8Array(randomBytes(16))),
          accountId: sender.id,
          apiKeyId: null,
          fromHandle: sender.handle,
          to: merchant.handle,
          recipientAddress: merchant.publicKey,
          sealedDetails: null,
          asset: "USDG",
          confidential: false,
          usageIncrement: null,
          createdAt: new Date().toISOString(),
        }),
        ...extra,
      };
      await db.transaction((tx) =>
        tx
          .insert(db.tables.transfers)
          .values(row)
          .then(() => undefined),
      );
      return row;
    },
    async factFor(row, sender, change = {}) {
      return {
        kind: "transfer_executed",
        position: await position(sender.type === "agent" ? "TransferExecuted" : "ServiceTransferRecorded"),
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
    },
    async heldFactFor(row, sender, change = {}) {
      const pending = await newAddress();
      const agentAddress = change.agent ?? sender.publicKey;
      return {
        kind: "transfer_held",
        position: await position("TransactionHeld"),
        transferId: row.id,
        agent: agentAddress,
        pending,
        expiresAt: BLOCK_TIME + 86_400n,
        hold: {
          address: pending as never,
          agent: agentAddress as never,
          nonce: 0n,
          source: (await findTokenAccount(agentAddress, usdgMint)) as never,
          destination: (change.destination ??
            (await findTokenAccount(merchant.publicKey, usdgMint))) as never,
          mint: (change.mint ?? usdgMint) as never,
          amount: 60_000_000n,
          requestedAt: BLOCK_TIME,
          expiresAt: BLOCK_TIME + 86_400n,
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
    },
    apply: (fact) =>
      applyTransactions(ctx, [
        { at: { signature: fact.position.signature, slot: fact.position.slot }, facts: [fact] },
      ]),
    async rowNow(id) {
      const { transfers } = db.tables;
      return (await db.read((q) => q.select().from(transfers).where(eq(transfers.id, id))))[0];
    },
    async eventsOf(id) {
      return (await db.read((q) => q.select().from(db.tables.events))).filter(
        (event) => event.resourceId === id,
      );
    },
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
