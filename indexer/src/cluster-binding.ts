/**
 * The API ties its database to one cluster (`service_meta.cluster_instance` =
 * `<genesis hash>/<instance id>`, api/src/db/open-for-cluster.ts). The standalone indexer checks the
 * genesis half against the RPC it reads before writing anything: records of one chain written into
 * another chain's database would confirm transfers that never happened there.
 */
import type { Database } from "@cpay/ledger/database";
import { createSolanaRpc } from "@solana/kit";
import { eq } from "drizzle-orm";

export class ClusterMismatchError extends Error {
  override readonly name = "ClusterMismatchError";
}

export async function assertDatabaseOfCluster(db: Database, rpcUrl: string): Promise<void> {
  const { serviceMeta } = db.tables;
  const [row] = await db.read((q) =>
    q.select().from(serviceMeta).where(eq(serviceMeta.key, "cluster_instance")),
  );
  if (row === undefined) {
    throw new ClusterMismatchError(
      "the database has no cluster yet: start the API on it first (it creates the accounts the indexer records for)",
    );
  }
  const genesis = await createSolanaRpc(rpcUrl).getGenesisHash().send();
  const recorded = row.value.split("/")[0];
  if (recorded !== genesis) {
    throw new ClusterMismatchError(
      `the database belongs to the cluster with genesis ${recorded}, but ${rpcUrl} serves genesis ${genesis}`,
    );
  }
}
