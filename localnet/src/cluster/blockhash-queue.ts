/**
 * The recent-blockhash queue, like a validator's: one blockhash per slot, and a transaction is
 * accepted while its blockhash is at most MAX_PROCESSING_AGE (150) blocks old. LiteSVM itself only
 * accepts its single latest blockhash, so the cluster turns LiteSVM's check off and asks this queue.
 *
 * Rule (Agave `BlockhashQueue::is_hash_valid_for_age`): a blockhash registered at block height h is
 * valid while the current block height is <= h + 150, which is also its `lastValidBlockHeight`.
 */
export const MAX_PROCESSING_AGE = 150n;

export interface BlockhashEntry {
  readonly blockhash: string;
  readonly slot: bigint;
  readonly blockHeight: bigint;
}

export interface BlockhashQueue {
  /** Registers the blockhash of a new block; forgets those that can no longer be valid. */
  push(entry: BlockhashEntry): void;
  latest(): BlockhashEntry;
  /** The entry of `blockhash` if it is still valid at the latest block height. */
  lookup(blockhash: string): BlockhashEntry | null;
  /** The last block height at which a transaction using `entry.blockhash` can land. */
  lastValidBlockHeight(entry: BlockhashEntry): bigint;
}

/** A queue starting with the genesis blockhash. */
export function createBlockhashQueue(genesis: BlockhashEntry): BlockhashQueue {
  const entries = new Map<string, BlockhashEntry>([[genesis.blockhash, genesis]]);
  let latest = genesis;
  return {
    push(entry) {
      entries.set(entry.blockhash, entry);
      latest = entry;
      // Map iteration is insertion order: the oldest entries come first.
      for (const [hash, old] of entries) {
        if (latest.blockHeight - old.blockHeight <= MAX_PROCESSING_AGE) break;
        entries.delete(hash);
      }
    },
    latest: () => latest,
    lookup(blockhash) {
      const entry = entries.get(blockhash);
      if (entry === undefined || latest.blockHeight - entry.blockHeight > MAX_PROCESSING_AGE) return null;
      return entry;
    },
    lastValidBlockHeight: (entry) => entry.blockHeight + MAX_PROCESSING_AGE,
  };
}
