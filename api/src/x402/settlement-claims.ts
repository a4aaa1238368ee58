/**
 * The settlement records (`x402_settlements`): the database, not any process's memory, says whether
 * a payment was settled, so a payment presented again — to this process, another one, or one
 * started since — is refused, long after the cluster has forgotten it processed the transaction.
 *
 * A claim is inserted BEFORE the reserve signs: the message hash is the key, so of two requests
 * presenting one payment at once exactly one inserts it and goes on. The claim is given back only
 * when nothing can have landed (the reserve refused to sign, the cluster refused the transaction, or
 * its blockhash expired unseen); otherwise it ends `settled` or `failed`, and stays. A claim its
 * process left `sending` (it died mid-settle) is settled from the chain by recover-settlements.ts.
 */
import type { Db } from "@cpay/ledger/database";
import { and, asc, eq } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";
import type { PaymentShapeName } from "./payment-shapes";

export type SettlementStatus = "sending" | "settled" | "failed";

export interface SettlementClaim {
  readonly messageHash: string;
  readonly accountId: string;
  readonly network: string;
  readonly payer: string;
  readonly shape: PaymentShapeName;
}

/** The settlement of the payment whose message hashes to `messageHash`, if any. */
export async function settlementOf(service: ServiceContext, messageHash: string) {
  const { x402Settlements } = service.db.tables;
  const [row] = await service.db.read((db) =>
    db.select().from(x402Settlements).where(eq(x402Settlements.messageHash, messageHash)),
  );
  return row;
}

/** Claims the payment for settling; false when it is claimed already (a duplicate). */
export async function claimSettlement(service: ServiceContext, claim: SettlementClaim): Promise<boolean> {
  const { x402Settlements } = service.db.tables;
  const inserted = await service.db.transaction((tx) =>
    tx
      .insert(x402Settlements)
      .values({ ...claim, status: "sending", createdAt: new Date(service.clock()).toISOString() })
      .onConflictDoNothing()
      .returning({ messageHash: x402Settlements.messageHash }),
  );
  return inserted.length === 1;
}

/** Notes the signature the claimed payment will land under, once the reserve signed it. */
export async function noteSettlementSignature(
  service: ServiceContext,
  messageHash: string,
  signature: string,
): Promise<void> {
  const { x402Settlements } = service.db.tables;
  await service.db.transaction((tx) =>
    tx.update(x402Settlements).set({ signature }).where(eq(x402Settlements.messageHash, messageHash)),
  );
}

/** Gives a claim back: nothing of the payment landed, so it may be presented again. */
export async function releaseSettlement(service: ServiceContext, messageHash: string): Promise<void> {
  const { x402Settlements } = service.db.tables;
  await service.db.transaction((tx) =>
    tx
      .delete(x402Settlements)
      .where(and(eq(x402Settlements.messageHash, messageHash), eq(x402Settlements.status, "sending"))),
  );
}

/**
 * Ends a claim `settled` (with the transfer it made) or `failed`, inside `tx`, if it is still
 * `sending`: false when another writer (the request, or the recovery in any process) ended it
 * first, so the caller writes nothing more (guarded like the ledger's transfer transitions).
 */
export async function finishSettlementIn(
  service: ServiceContext,
  tx: Db,
  messageHash: string,
  outcome: { readonly status: Exclude<SettlementStatus, "sending">; readonly transferId: string | null },
): Promise<boolean> {
  const { x402Settlements } = service.db.tables;
  const ended = await tx
    .update(x402Settlements)
    .set({ ...outcome, settledAt: new Date(service.clock()).toISOString() })
    .where(and(eq(x402Settlements.messageHash, messageHash), eq(x402Settlements.status, "sending")))
    .returning({ messageHash: x402Settlements.messageHash });
  return ended.length === 1;
}

/** Up to `limit` claims still `sending`, oldest first (recover-settlements.ts). */
export function sendingSettlements(service: ServiceContext, limit: number) {
  const { x402Settlements } = service.db.tables;
  return service.db.read((db) =>
    db
      .select()
      .from(x402Settlements)
      .where(eq(x402Settlements.status, "sending"))
      .orderBy(asc(x402Settlements.createdAt))
      .limit(limit),
  );
}
