/**
 * A fresh SQLite database with an owner, its agent and a merchant, for the tests of this package's
 * transitions and outbox facts: no chain, no API. Test-only; nothing in the package imports it.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { type Database, openDatabase } from "../db/database";
import type { AccountRow, EventRow, TransferRow } from "../db/rows";
import type { OutboxContext } from "../events/record-event";
import { newId } from "../ids";
import { insertSubmittingTransfer } from "../transfers/transfer-transitions";
import { accountRowOf } from "./account-row";

/** A base58 string of Solana signature length (never checked against a chain here). */
export const someSignature = () =>
  randomBytes(64)
    .toString("base64")
    .replace(/[^1-9A-HJ-NP-Za-km-z]/g, "");

export interface RecordsWorld {
  readonly db: Database;
  readonly service: OutboxContext;
  readonly owner: AccountRow;
  readonly agent: AccountRow;
  readonly merchant: AccountRow;
  /** A `submitting` transfer of `sender` to the merchant. */
  submitting(sender: AccountRow, extra?: { readonly confidential?: boolean }): Promise<TransferRow>;
  rowNow(id: string): Promise<TransferRow>;
  events(): Promise<EventRow[]>;
  close(): Promise<void>;
}

export async function startRecordsWorld(): Promise<RecordsWorld> {
  const dir = mkdtempSync(join(tmpdir(), "cpay-records-"));
  const db = await openDatabase(join(dir, "cpay.sqlite"));
  const service: OutboxContext = { db, clock: Date.now };
  const account = async (handle: string, type: string, extra: Partial<AccountRow> = {}) => {
    const row = accountRowOf({
      id: newId("acct"),
      handle,
      type,
      publicKey: randomBytes(32).toString("hex"),
      ...extra,
    });
    await db.transaction(async (tx) => {
      await tx.insert(db.tables.accounts).values(row);
    });
    return row;
  };
  const owner = await account("@owner", "personal");
  const agent = await account("@owner/bot", "agent", {
    ownerAccountId: owner.id,
    agentCustody: "service",
    policyId: newId("policy"),
  });
  const merchant = await account("@merchant", "business");

  return {
    db,
    service,
    owner,
    agent,
    merchant,
    submitting: (sender, extra = {}) =>
      insertSubmittingTransfer(service, {
        id: newId("tr"),
        accountId: sender.id,
        apiKeyId: null,
        fromHandle: sender.handle,
        to: merchant.handle,
        recipientAddress: merchant.publicKey,
        asset: "USDG",
        confidential: extra.confidential ?? false,
        usageIncrement: null,
        createdAt: new Date().toISOString(),
        sealedDetails: null,
      }),
    async rowNow(id) {
      const { transfers } = db.tables;
      const [row] = await db.read((q) => q.select().from(transfers).where(eq(transfers.id, id)));
      if (row === undefined) throw new Error(`no transfer ${id}`);
      return row;
    },
    events: () => db.read((q) => q.select().from(db.tables.events)),
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
