/**
 * Re-emits each landed transaction once per commitment level, at the moment its slot reaches that
 * level, so a subscription at `confirmed` hears about a transaction when a validator's would: not
 * when it executes, but when the cluster's confirmed slot passes it.
 *
 * The cluster announces transactions as they land (processed) and slot advances with the highest
 * confirmed and finalized slots; records wait here between the two. The wait is bounded by the
 * finalization lag, so memory stays bounded too.
 */
import type { ClusterPort, Commitment, TransactionRecord } from "../cluster/cluster-port";

export type CommitmentListener = (record: TransactionRecord, commitment: Commitment) => void;

export interface CommitmentFeed {
  on(listener: CommitmentListener): () => void;
  close(): void;
}

export function createCommitmentFeed(cluster: ClusterPort): CommitmentFeed {
  const listeners = new Set<CommitmentListener>();
  const waiting: Record<"confirmed" | "finalized", TransactionRecord[]> = { confirmed: [], finalized: [] };

  const emit = (record: TransactionRecord, commitment: Commitment) => {
    for (const listener of [...listeners]) listener(record, commitment);
  };

  const release = (level: "confirmed" | "finalized", highest: bigint) => {
    const queue = waiting[level];
    const ready = queue.filter((record) => record.slot <= highest);
    if (ready.length === 0) return;
    waiting[level] = queue.filter((record) => record.slot > highest);
    for (const record of ready) emit(record, level);
  };

  const offTransaction = cluster.on("transaction", (record) => {
    emit(record, "processed");
    waiting.confirmed.push(record);
    waiting.finalized.push(record);
    release("confirmed", cluster.getSlot("confirmed"));
    release("finalized", cluster.getSlot("finalized"));
  });
  const offSlot = cluster.on("slot", ({ confirmed, finalized }) => {
    release("confirmed", confirmed);
    release("finalized", finalized);
  });

  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      offTransaction();
      offSlot();
      listeners.clear();
      waiting.confirmed = [];
      waiting.finalized = [];
    },
  };
}
