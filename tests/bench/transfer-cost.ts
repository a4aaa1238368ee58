/**
 * What the confidential benches measure of a flow: its transactions and their compute units, read
 * back from the cluster (a failed one fails the bench), and the median of timing samples.
 */
import type { ClusterPort } from "@cpay/localnet/cluster";

export interface TransferCost {
  readonly transactions: number;
  readonly computeUnits: number;
}

export function costOf(
  cluster: Pick<ClusterPort, "getTransaction">,
  signatures: readonly string[],
): TransferCost {
  let computeUnits = 0;
  for (const signature of signatures) {
    const record = cluster.getTransaction(signature);
    if (record === null || record.err !== null) throw new Error(`bench transaction ${signature} failed`);
    computeUnits += Number(record.computeUnitsConsumed);
  }
  return { transactions: signatures.length, computeUnits };
}

export function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
