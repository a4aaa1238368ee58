/**
 * Where a bench child's service finds its chain: the localnet process named by
 * `BENCH_LOCALNET_MANIFEST` (over JSON-RPC + PubSub, as `bash scripts/start.sh` runs it), or else a
 * LiteSVM cluster made in the child itself (the in-process figures). Either way with the faucet that
 * funds the bench accounts, so the modes of the children read the same over both.
 */
import { type ChainConnection, localnetConnection, type UsdgFaucet } from "@cpay/api";
import { createEmbeddedCluster } from "@cpay/localnet/cluster";
import { inProcessConnection } from "../support/in-process-connection";

/** The env variable the bench sets on a child whose chain is the localnet process. */
export const LOCALNET_MANIFEST_ENV = "BENCH_LOCALNET_MANIFEST";

export interface BenchConnection {
  readonly connection: ChainConnection;
  readonly faucet: UsdgFaucet;
}

/** The connection (see the file doc); `slotMs` only sets an in-process cluster's slot time. */
export async function benchConnection(options: { readonly slotMs?: number } = {}): Promise<BenchConnection> {
  const manifest = process.env[LOCALNET_MANIFEST_ENV];
  if (manifest !== undefined) {
    const connection = await localnetConnection(manifest);
    if (connection.testFaucet === null) throw new Error(`the localnet at ${manifest} has no faucet`);
    return { connection, faucet: connection.testFaucet };
  }
  const cluster = await createEmbeddedCluster(options.slotMs === undefined ? {} : { slotMs: options.slotMs });
  return { connection: await inProcessConnection(cluster), faucet: cluster };
}
