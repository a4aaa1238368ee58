/**
 * The chain connection of an environment from its settings: the localnet's manifest (the test
 * environment by default), or a cluster named by URLs, addresses and signer settings (devnet,
 * mainnet-beta), checked before anything is served (chain/startup-checks/). A cluster named this
 * way has no faucet and no upgrade authority key: its program config must exist already.
 */

import { ConfigError } from "@cpay/ledger/config";
import { connectRpcChain } from "@cpay/sdk/chain";
import { type ChainConnection, localnetConnection } from "../chain/chain-connection";
import { checkClusterAtStart } from "../chain/startup-checks";
import type { EnvironmentSettings, ExplicitCluster } from "../core/config/environment-settings";
import { loadSigner } from "./load-signer";

export async function connectEnvironment(settings: EnvironmentSettings): Promise<ChainConnection> {
  const { cluster } = settings;
  if (cluster.kind === "manifest") {
    return localnetConnection(cluster.manifestPath, {
      ...(cluster.rpcUrl === undefined ? {} : { rpcUrl: cluster.rpcUrl }),
      ...(cluster.wsUrl === undefined ? {} : { wsUrl: cluster.wsUrl }),
      name: settings.name,
      allowedProgramSha256s: settings.allowedProgramSha256s,
      reserveMinLamports: settings.reserveMinLamports,
      builtProgramPath: settings.builtProgramPath,
    });
  }
  return explicitConnection(settings, cluster);
}

async function explicitConnection(
  settings: EnvironmentSettings,
  cluster: ExplicitCluster,
): Promise<ChainConnection> {
  const prefix = settings.name.toUpperCase();
  const feePayer = await loadSigner(`${prefix}_FEE_RESERVE_SIGNER`, cluster.feeReserve);
  const registrar = await loadSigner(`${prefix}_REGISTRAR_SIGNER`, cluster.registrar);
  const where = `the ${settings.name} environment (${cluster.rpcDescription})`;
  let chain: Awaited<ReturnType<typeof connectRpcChain>>;
  try {
    chain = await connectRpcChain(cluster);
  } catch (error) {
    // The error may quote the URL, which carries a Helius key: name the kind of failure only.
    throw new ConfigError(
      `${where}: cannot reach the Solana RPC (${error instanceof Error ? error.name : "failed"}); check its URL settings`,
    );
  }
  try {
    await checkClusterAtStart(chain, {
      where,
      feeReserve: feePayer.address,
      reserveMinLamports: settings.reserveMinLamports,
      allowedProgramSha256s: settings.allowedProgramSha256s,
      builtProgramPath: settings.builtProgramPath,
    });
  } catch (error) {
    await chain.close();
    throw error;
  }
  return {
    chain,
    feePayer,
    registrar,
    programAdmin: null,
    testFaucet: null,
    description: `${cluster.rpcDescription} (genesis ${chain.genesisHash})`,
    close: () => chain.close(),
  };
}
