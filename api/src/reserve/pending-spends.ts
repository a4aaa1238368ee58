/**
 * Reserve spends waiting to be settled to what their transactions cost: the
 * `reserve_reconciliations` rows. A request's scope writes one when it ends (reserve-scope.ts)
 * instead of waiting there for its transactions to be readable; the reconciler
 * (reconcile-reserve.ts) reads what they cost and settles the reservations and deletes the row in
 * one database transaction. The delete is the guard: whichever pass or process gets there first
 * settles the spend, a second finds no row and settles nothing, and a crash before it leaves the
 * row (the reservations still held, the conservative side) for the next pass.
 */
import { asc, eq, lt } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";
import { NO_CHARGE, type Reservation, type ReserveCharge, settleReservationIn } from "./reserve-charges";

/** One scope's spend: what it reserved and what the reserve signed in it. */
export interface PendingSpend {
  readonly accountId: string;
  /**
   * Still held in `reserve_usage.reserved_lamports` and `reserve_advances.reserved_lamports`; the
   * first one's day is charged what landed.
   */
  readonly reservations: readonly Reservation[];
  /** Distinct; the first one is the row's key (a signature belongs to one scope only). */
  readonly signatures: readonly [string, ...string[]];
  /**
   * The blockhash each signature's transaction was signed with: until it expires, a transaction the
   * cluster does not know yet may still land (a send whose answer was lost), so it cannot be called
   * "never landed". Missing for a row written before blockhashes were kept (then its age decides).
   */
  readonly blockhashes: ReadonlyMap<string, string>;
  /** When the spend was recorded (epoch ms of the service clock); set on rows read back. */
  readonly recordedAt?: number;
}

/** The `signatures` column: JSON, each `{signature, blockhash}` (older rows: a bare signature). */
type StoredSignature = string | { readonly signature: string; readonly blockhash: string };

/**
 * Records `spend` as waiting (durably, before the request that made it answers); false when its
 * first signature is recorded already (the same bytes signed again in another scope): that record
 * charges the transaction, so this spend's reservations are released instead of charged twice.
 */
export async function recordPendingSpend(service: ServiceContext, spend: PendingSpend): Promise<boolean> {
  const { reserveReconciliations } = service.db.tables;
  const inserted = await service.db.transaction((tx) =>
    tx
      .insert(reserveReconciliations)
      .values({
        signature: spend.signatures[0],
        accountId: spend.accountId,
        reservations: JSON.stringify(
          spend.reservations.map((reservation) => ({
            day: reservation.day,
            lamports: reservation.lamports.toString(),
            advance: reservation.advanceLamports.toString(),
          })),
        ),
        signatures: JSON.stringify(
          spend.signatures.map((signature): StoredSignature => {
            const blockhash = spend.blockhashes.get(signature);
            return blockhash === undefined ? signature : { signature, blockhash };
          }),
        ),
        createdAt: new Date(service.clock()).toISOString(),
      })
      .onConflictDoNothing()
      .returning({ signature: reserveReconciliations.signature }),
  );
  return inserted.length > 0;
}

/**
 * Settles each spend to `actual` (what its landed transactions lost and advanced) and deletes its
 * row, all in one transaction; a spend whose row is gone (settled already) is skipped. Each
 * reservation leaves the day it was made on; what landed is charged to the first one's day.
 * Returns how many were settled here.
 */
export async function settlePendingSpends(
  service: ServiceContext,
  settled: readonly { readonly spend: PendingSpend; readonly actual: ReserveCharge }[],
): Promise<number> {
  if (settled.length === 0) return 0;
  const { reserveReconciliations } = service.db.tables;
  return service.db.transaction(async (tx) => {
    let count = 0;
    for (const { spend, actual } of settled) {
      const deleted = await tx
        .delete(reserveReconciliations)
        .where(eq(reserveReconciliations.signature, spend.signatures[0]))
        .returning({ signature: reserveReconciliations.signature });
      if (deleted.length === 0) continue;
      const [first, ...others] = spend.reservations;
      for (const reservation of others) await settleReservationIn(service, tx, reservation, NO_CHARGE);
      if (first !== undefined) await settleReservationIn(service, tx, first, actual);
      count++;
    }
    return count;
  });
}

/** The oldest `limit` spends recorded before `before` (epoch ms of the service clock). */
export async function pendingSpendsBefore(
  service: ServiceContext,
  before: number,
  limit: number,
): Promise<PendingSpend[]> {
  const { reserveReconciliations } = service.db.tables;
  const rows = await service.db.read((db) =>
    db
      .select()
      .from(reserveReconciliations)
      .where(lt(reserveReconciliations.createdAt, new Date(before).toISOString()))
      .orderBy(asc(reserveReconciliations.createdAt))
      .limit(limit),
  );
  return rows.map((row) => {
    // A row written before advances were reserved apart has no `advance`: it held only loss.
    const stored = JSON.parse(row.reservations) as { day: string; lamports: string; advance?: string }[];
    const reservations = stored.map(({ day, lamports, advance }) => ({
      accountId: row.accountId,
      day,
      lamports: BigInt(lamports),
      advanceLamports: BigInt(advance ?? "0"),
    }));
    const storedSignatures = JSON.parse(row.signatures) as StoredSignature[];
    const blockhashes = new Map<string, string>();
    const signatures = storedSignatures.map((entry) => {
      if (typeof entry === "string") return entry;
      blockhashes.set(entry.signature, entry.blockhash);
      return entry.signature;
    });
    return {
      accountId: row.accountId,
      reservations,
      signatures: [row.signature, ...signatures.filter((signature) => signature !== row.signature)],
      blockhashes,
      recordedAt: Date.parse(row.createdAt),
    };
  });
}
