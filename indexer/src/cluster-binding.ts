/**
 * The API ties its database to one chain by its genesis hash (@cpay/ledger/chain-identity). The
 * standalone indexer checks it against the RPC it reads before writing anything: records of one
 * chain written into another chain's database would confirm transfers that never happened there.
 */
import { recordedGenesisHash } from "@cpay/ledger/chain-identity";
import type { Database } from "@cpay/ledger/database";

export class ClusterMismatchError extends Error {
  override readonly name = "ClusterMismatchError";
}

/** Throws ClusterMismatchError unless the database belongs to the cluster of `genesisHash` (read at `rpcUrl`). */
export async function assertDatabaseOfCluster(
  db: Database,
  genesisHash: string,
  rpcUrl: string,
): Promise<void> {
  const recorded = await recordedGenesisHash(db);
  if (recorded === null) {
    throw new ClusterMismatchError(
      "the database has no cluster yet: start the API on it first (it creates the accounts the indexer records for)",
    );
  }
  if (recorded !== genesisHash) {
    throw new ClusterMismatchError(
      `the database belongs to the cluster with genesis ${recorded}, but ${rpcUrl} serves genesis ${genesisHash}`,
    );
  }
}
