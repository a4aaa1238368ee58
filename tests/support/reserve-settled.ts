/**
 * Waiting for the fee reserve's spends to be settled: a request answers once its transactions
 * landed, and what they cost is settled in the background once they are readable
 * (api/src/reserve/reconcile-reserve.ts). A suite that reads the reserve's charges after a request
 * waits here first, until no spend is left recorded as waiting.
 */
import type { ServiceContext } from "@cpay/api";

/** Resolves once no spend waits to be settled; throws after `timeoutMs` (default 30 s). */
export async function reserveSettled(context: ServiceContext, timeoutMs = 30_000): Promise<void> {
  const { db } = context;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const waiting = await db.read((q) => q.select().from(db.tables.reserveReconciliations));
    if (waiting.length === 0) return;
    if (Date.now() >= deadline) {
      throw new Error(`${waiting.length} fee reserve spends still unsettled after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
