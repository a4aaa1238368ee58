/**
 * What a client needs to use this localnet (the format: `LocalnetManifest`, sdk/src/chain/localnet-manifest.ts), written beside its chain store once it serves: the RPC and
 * PubSub URLs, the genesis hash, the program id and USDG mint, and the keypair files of the keys the
 * service needs on a test cluster (fee reserve, the program's upgrade authority that initialises its
 * config, the USDG mint authority that is the test faucet). `solana-test-validator` does the same
 * with its faucet keypair. These keys come from public labels: they guard nothing of value.
 *
 * Files are written to a temporary name, fsynced and renamed, so a reader never sees half a file.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import {
  LOCALNET_MANIFEST_FILE,
  LOCALNET_MANIFEST_FORMAT,
  type LocalnetKey,
  type LocalnetManifest,
} from "@cpay/sdk/chain";
import { getAddressEncoder } from "@solana/kit";
import type { EmbeddedCluster } from "../cluster/embedded-cluster";

function writeFileAtomically(path: string, contents: string, mode: number): void {
  const temporary = `${path}.tmp-${process.pid}`;
  const fd = openSync(temporary, "w", mode);
  try {
    writeSync(fd, contents);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/** A Solana CLI keypair file: 64 numbers, the ed25519 seed then the public key. */
function keypairJson(key: LocalnetKey): string {
  return JSON.stringify([...key.seed, ...getAddressEncoder().encode(key.address)]);
}

/** Writes the manifest and its keypair files into `dir`; returns the manifest's path. */
export function writeLocalnetManifest(
  dir: string,
  cluster: EmbeddedCluster,
  urls: { readonly rpcUrl: string; readonly wsUrl: string },
): string {
  if (cluster.keys.feeReserve === null) {
    throw new Error(
      "the localnet manifest needs the fee reserve's key; this cluster was given only its address",
    );
  }
  mkdirSync(join(dir, "keys"), { recursive: true, mode: 0o700 });
  const keys = {
    feeReserve: ["keys/fee-reserve.json", cluster.keys.feeReserve],
    programUpgradeAuthority: ["keys/program-upgrade-authority.json", cluster.keys.programUpgradeAuthority],
    usdgMintAuthority: ["keys/usdg-mint-authority.json", cluster.keys.usdgMintAuthority],
  } as const;
  for (const [file, key] of Object.values(keys))
    writeFileAtomically(join(dir, file), keypairJson(key), 0o600);
  const manifest: LocalnetManifest = {
    format: LOCALNET_MANIFEST_FORMAT,
    rpcUrl: urls.rpcUrl,
    wsUrl: urls.wsUrl,
    genesisHash: cluster.genesisHash,
    programId: cluster.programId,
    usdgMint: cluster.usdgMint,
    keypairs: {
      feeReserve: keys.feeReserve[0],
      programUpgradeAuthority: keys.programUpgradeAuthority[0],
      usdgMintAuthority: keys.usdgMintAuthority[0],
    },
  };
  const path = join(dir, LOCALNET_MANIFEST_FILE);
  writeFileAtomically(path, `${JSON.stringify(manifest, null, 2)}\n`, 0o644);
  return path;
}
