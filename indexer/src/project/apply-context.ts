/** What applying facts needs: the outbox (database + clock) and the chain's asset mint. */
import type { OutboxContext } from "@cpay/ledger";

export interface ApplyContext extends OutboxContext {
  /** The USDG mint: transfers of it are `USDG`; any other mint is named by its address. */
  readonly usdgMint: string;
}

/**
 * ISO time of a block's unix seconds, never before `notBefore` (a row's created_at). A node that
 * does not know a block's time reports 0 (rpc-chain.ts); the indexing time stands in for it then.
 */
export function blockIso(blockTime: bigint, notBefore?: string): string {
  const ms = blockTime > 0n ? Number(blockTime) * 1000 : Date.now();
  const floor = notBefore === undefined ? ms : Math.max(ms, Date.parse(notBefore));
  return new Date(floor).toISOString();
}
