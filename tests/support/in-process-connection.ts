/**
 * The service's chain connection over a LiteSVM cluster in the suite's own process (the fast test
 * mode): the same shape `startService` gets from the localnet over RPC, with the simulator's keys.
 */
import type { KeyFileConnection } from "@cpay/api";
import { type EmbeddedCluster, inProcessChain } from "@cpay/localnet/cluster";

export async function inProcessConnection(cluster: EmbeddedCluster): Promise<KeyFileConnection> {
  const feeReserve = cluster.keys.feeReserve;
  if (feeReserve === null)
    throw new Error("this cluster was given only the fee reserve's address, not its key");
  const chain = inProcessChain(cluster);
  const feePayer = await feeReserve.toSigner();
  return {
    chain,
    feePayer,
    registrar: feePayer,
    programAdmin: await cluster.keys.programUpgradeAuthority.toSigner(),
    testFaucet: cluster,
    description: `in-process cluster (genesis ${cluster.genesisHash})`,
    close: () => chain.close(),
  };
}
