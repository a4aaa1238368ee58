/**
 * The browser world's live environment, as tests/environments/two-environments.test.ts makes one
 * but lighter: a second localnet process (its own genesis, program and USDG mint) standing in for
 * mainnet-beta, its program config initialised by its upgrade authority with a registrar of the
 * operator's own, and the API's `LIVE_` settings naming it (URLs, ids, key files). Nothing is
 * indexed there: the browser test of the live environment signs in and reads its account only.
 */
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildConfigInitializeInstruction } from "@cpay/sdk";
import { connectRpcChain } from "@cpay/sdk/chain";
import { address, createKeyPairSignerFromBytes } from "@solana/kit";
import { writeKeypairFile } from "../../support/exec-signer";
import { startLocalnetProcess } from "../../support/localnet-process";
import { sendAs } from "../../support/send-as";

interface Manifest {
  readonly programId: string;
  readonly usdgMint: string;
  readonly keypairs: { readonly feeReserve: string; readonly programUpgradeAuthority: string };
}

export interface LiveCluster {
  /** The API's settings for its live environment. */
  readonly env: Readonly<Record<string, string>>;
  remove(): Promise<void>;
}

/** Starts the live cluster under `dir` and readies it as an operator would before the API starts. */
export async function startLiveCluster(dir: string): Promise<LiveCluster> {
  const localnet = await startLocalnetProcess({ dir: join(dir, "live-localnet") });
  try {
    const manifest = JSON.parse(readFileSync(localnet.manifestPath, "utf8")) as Manifest;
    const keyFile = (name: string) => join(localnet.dir, name);
    const upgradeAuthority = await createKeyPairSignerFromBytes(
      new Uint8Array(JSON.parse(readFileSync(keyFile(manifest.keypairs.programUpgradeAuthority), "utf8"))),
    );
    const registrar = writeKeypairFile(dir, "live-registrar");
    const chain = await connectRpcChain({
      rpcUrl: localnet.rpcUrl(),
      wsUrl: localnet.wsUrl(),
      programId: manifest.programId,
      usdgMint: manifest.usdgMint,
    });
    try {
      await sendAs(chain, upgradeAuthority, [
        await buildConfigInitializeInstruction({
          admin: upgradeAuthority,
          registrar: address(registrar.address),
          programAddress: address(manifest.programId),
        }),
      ]);
    } finally {
      await chain.close();
    }
    // The service refuses a key file others may read, as ssh does.
    const feeReserve = keyFile(manifest.keypairs.feeReserve);
    chmodSync(feeReserve, 0o600);
    return {
      env: {
        LIVE_DATABASE_URL: join(dir, "live.sqlite"),
        LIVE_RPC_URL: localnet.rpcUrl(),
        LIVE_WS_URL: localnet.wsUrl(),
        LIVE_PROGRAM_ID: manifest.programId,
        LIVE_USDG_MINT: manifest.usdgMint,
        LIVE_FEE_RESERVE_SIGNER: `file:${feeReserve}`,
        LIVE_REGISTRAR_SIGNER: `file:${registrar.path}`,
      },
      remove: () => localnet.remove(),
    };
  } catch (error) {
    await localnet.remove();
    throw error;
  }
}
