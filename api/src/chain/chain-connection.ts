/**
 * The service's way onto a cluster: the chain port, the keys it signs with there, and the test
 * faucet when the cluster has one. Two sources, one shape, so nothing above start-up knows which:
 * - `localnetConnection`: the localnet process over JSON-RPC + PubSub, found through the manifest it
 *   writes beside its chain store (what `bash scripts/start.sh` runs);
 * - a LiteSVM cluster in the caller's process (the suites' fast mode, tests/support/in-process-connection.ts).
 */

import { ConfigError } from "@cpay/ledger/config";
import type { ChainPort } from "@cpay/sdk/chain";
import { connectRpcChain } from "@cpay/sdk/chain";
import { address, type KeyPairSigner, type TransactionPartialSigner } from "@solana/kit";
import {
  DEFAULT_RESERVE_MIN_LAMPORTS,
  type EnvironmentSettings,
  type ManifestCluster,
} from "../core/config/environment-settings";
import { mintTestUsdg } from "./mint-test-usdg";
import { readLocalnetManifest } from "./read-localnet-manifest";
import { checkClusterAtStart } from "./startup-checks";
import type { UsdgFaucet } from "./usdg-faucet";

export interface ChainConnection {
  readonly chain: ChainPort;
  /** Pays every fee and rent deposit (a key file's key, or a KMS-style signing program). */
  readonly feePayer: TransactionPartialSigner;
  /** The program config's registrar: the only key that may register handles. */
  readonly registrar: TransactionPartialSigner;
  /** May initialise the program's config when it is missing (its upgrade authority); null: it must exist. */
  readonly programAdmin: KeyPairSigner | null;
  /** The test cluster's USDG faucet (admin `fund`, the demo accounts); null where there is none. */
  readonly testFaucet: UsdgFaucet | null;
  /** Where the chain came from, for the start banner and errors. */
  readonly description: string;
  /** A localnet's RPC URL, for the dashboard's explorer links (explorer-link.ts); absent elsewhere. */
  readonly localnetRpcUrl?: string;
  close(): Promise<void>;
}

/** A connection whose keys are in this process (a localnet's key files): tests sign with them too. */
export type KeyFileConnection = ChainConnection & {
  readonly feePayer: KeyPairSigner;
  readonly registrar: KeyPairSigner;
};

/** How a localnet is reached and checked: URLs over the manifest's, and its environment's rules. */
export type LocalnetOptions = Partial<Omit<ManifestCluster, "kind" | "manifestPath">> &
  Partial<
    Pick<EnvironmentSettings, "name" | "allowedProgramSha256s" | "reserveMinLamports" | "builtProgramPath">
  >;

/**
 * The localnet described by the manifest at `manifestPath`, over its RPC (or `rpcUrl`/`wsUrl`),
 * checked at start (startup-checks/): program bytes, mint, reserve.
 */
export async function localnetConnection(
  manifestPath: string,
  options: LocalnetOptions = {},
): Promise<KeyFileConnection> {
  const urls = options;
  const environment = {
    name: options.name ?? "test",
    allowedProgramSha256s: options.allowedProgramSha256s ?? [],
    reserveMinLamports: options.reserveMinLamports ?? DEFAULT_RESERVE_MIN_LAMPORTS,
  };
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
    await checkClusterAtStart(chain, {
      where: `the ${environment.name} environment (${rpcUrl})`,
      feeReserve: localnet.feeReserve.address,
      reserveMinLamports: environment.reserveMinLamports,
      allowedProgramSha256s: environment.allowedProgramSha256s,
      ...(options.builtProgramPath === undefined ? {} : { builtProgramPath: options.builtProgramPath }),
    });
  } catch (error) {
    await chain.close();
    throw error;
  }
  return {
    chain,
    feePayer: localnet.feeReserve,
    registrar: localnet.feeReserve,
    programAdmin: localnet.programUpgradeAuthority,
    testFaucet: {
      mintUsdgToOwner: (owner, amount) =>
        mintTestUsdg(chain, { authority: localnet.usdgMintAuthority, owner: address(owner), amount }),
    },
    description: `localnet at ${rpcUrl} (genesis ${chain.genesisHash})`,
    localnetRpcUrl: rpcUrl,
    close: () => chain.close(),
  };
}
