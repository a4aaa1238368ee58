/** What applying facts needs: the outbox (database + clock) and the chain's asset mint. */
import type { OutboxContext } from "@cpay/api/records";

export interface ApplyContext extends OutboxContext {
  /** The USDG mint: transfers of it are `USDG`; any other mint is named by its address. */
  readonly usdgMint: string;
}

/** ISO time of a block's unix seconds, never before `notBefore` (a row's created_at). */
export function blockIso(blockTime: bigint, notBefore?: string): string {
  const ms = Number(blockTime) * 1000;
  const floor = notBefore === undefined ? ms : Math.max(ms, Date.parse(notBefore));
  return new Date(floor).toISOString();
}
