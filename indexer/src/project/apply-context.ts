/** What applying facts needs: the outbox (database + clock) and the chain's asset mint. */
import type { OutboxContext } from "@cpay/ledger";

export interface ApplyContext extends OutboxContext {
  /** The USDG mint: transfers of it are `USDG`; any other mint is named by its address. */
  readonly usdgMint: string;
}

/**
 * ISO time of `seenAt` (unix ms: when the indexer recorded the transaction at `confirmed`, its
 * clock read once per applied run), never before `notBefore` (the row's created_at or a hold's
 * requested_at, which another process's clock may have written a little ahead). What the indexer
 * stamps on what it confirms or decides (`confirmed_at`, a hold's `decided_at`): a fact of the
 * observation, at millisecond resolution. The chain's own time for a block is whole seconds of
 * its validators' clocks, so it cannot say when within a second, nor come after a creation time
 * taken in milliseconds.
 */
export function seenIso(seenAt: number, notBefore?: string): string {
  const floor = notBefore === undefined ? seenAt : Math.max(seenAt, Date.parse(notBefore));
  return new Date(floor).toISOString();
}

/**
 * ISO time of a block's unix seconds: the creation time of a transfer the service never saw being
 * made (found on chain), the only time the chain gives for it. Never after `seenAt` (it cannot have
 * been made after the indexer saw it confirmed, whatever the validators' clocks say). A node that
 * does not know a block's time reports 0 (as the chain port normalises it); `seenAt` stands in then.
 */
export function blockIso(blockTime: bigint, seenAt: number): string {
  const ms = blockTime > 0n ? Math.min(Number(blockTime) * 1000, seenAt) : seenAt;
  return new Date(ms).toISOString();
}
