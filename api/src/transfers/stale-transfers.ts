/**
 * The recovery jobs' work list: transfers left in one phase since before a cutoff, oldest first, a
 * batch at a time (recover-submissions.ts, recover-dropped.ts).
 */
import type { TransferPhase, TransferRow } from "@cpay/ledger";
import { and, asc, eq, lt } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";

/** At most `limit` transfers in `phase` written before `cutoff` (ISO time), oldest first. */
export function staleTransfers(
  service: ServiceContext,
  phase: TransferPhase,
  cutoff: string,
  limit: number,
): Promise<TransferRow[]> {
  const { transfers } = service.db.tables;
  return service.db.read((db) =>
    db
      .select()
      .from(transfers)
      .where(and(eq(transfers.phase, phase), lt(transfers.createdAt, cutoff)))
      .orderBy(asc(transfers.createdAt))
      .limit(limit),
  );
}
