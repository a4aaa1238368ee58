/**
 * The service's way onto a cluster: the chain port, the keys it signs with there, and the test
 * faucet when the cluster has one. Two sources, one shape, so nothing above start-up knows which:
 * - `localnetConnection`: the localnet process over JSON-RPC + PubSub, found through the manifest it
 *   writes beside its ledger (what `bash scripts/start.sh` runs);
 * - `inProcessConnection`: a LiteSVM cluster in this process (the fast test mode).
 */
import type { ChainPort } from "@cpay/sdk/chain";
import { connectRpcChain } from "@cpay/sdk/chain";
import type { Address, KeyPairSigner } from "@solana/kit";
import { ConfigError } from "../config";
import { checkClusterAtStart } from "./check-cluster";
import { mintTestUsdg } from "./mint-test-usdg";
import { readLocalnetManifest } from "./read-localnet-manifest";

/** Mints USDG on a test cluster (admin `fund`, the start command's demo accounts). */
export interface TestFaucet {
  mintUsdgToOwner(owner: Address, amount: bigint): Promise<void>;
}

export interface ChainConnection {
  readonly chain: ChainPort;
  /** Pays every fee and rent deposit. */
  readonly feePayer: KeyPairSigner;
  /** May initialise the program's config when it is missing (its upgrade authority); null: it must exist. */
  readonly programAdmin: KeyPairSigner | null;
  readonly testFaucet: TestFaucet | null;
  /** Where the chain came from, for the start banner and errors. */
  readonly description: string;
  close(): Promise<void>;
}

/** The localnet described by the manifest at `manifestPath`, over its RPC (or `rpcUrl`/`wsUrl`). */
export async function localnetConnection(
  manifestPath: string,
  urls: { readonly rpcUrl?: string; readonly wsUrl?: string } = {},
): Promise<ChainConnection> {
  const localnet = await readLocalnetManifest(manifestPath);
  const rpcUrl = urls.rpcUrl ?? localnet.rpcUrl;
  const wsUrl = urls.wsUrl ?? localnet.wsUrl;
  let chain: ChainPort;
  try {
    chain = await connectRpcChain({
      rpcUrl,
      wsUrl,
      programId: localnet.programId,
      usdgMint: localnet.usdgMint,
    });
  } catch (error) {
    throw new ConfigError(
      `cannot reach the Solana RPC at ${rpcUrl} (${error instanceof Error ? error.message : String(error)}): ` +
        "start the localnet (npm run localnet) or set SOLANA_RPC_URL",
    );
  }
  try {
    if (chain.genesisHash !== localnet.genesisHash) {
      throw new ConfigError(
        `the RPC at ${rpcUrl} serves the cluster with genesis ${chain.genesisHash}, not the localnet described ` +
          `by ${manifestPath} (genesis ${localnet.genesisHash}): point SOLANA_RPC_URL and LOCALNET_DIR at the same localnet`,
      );
    }
    await checkClusterAtStart(chain, { feeReserve: localnet.feeReserve.address, rpcUrl });
  } catch (error) {
    await chain.close();
    throw error;
  }
  return {
    chain,
    feePayer: localnet.feeReserve,
    programAdmin: localnet.programUpgradeAuthority,
    testFaucet: {
      mintUsdgToOwner: (owner, amount) =>
        mintTestUsdg(chain, { authority: localnet.usdgMintAuthority, owner, amount }),
    },
    description: `localnet at ${rpcUrl} (genesis ${chain.genesisHash})`,
    close: () => chain.close(),
  };
}
