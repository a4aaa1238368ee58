/**
 * What a suite reads of a localnet process it started: the manifest the process wrote once it
 * served, and a chain port of the suite's own onto it over JSON-RPC + PubSub (for the program and
 * USDG mint the manifest names; at the process's own URLs unless given others, a fault proxy's).
 */
import { readFileSync } from "node:fs";
import {
  type ChainPort,
  connectRpcChain,
  type LocalnetManifest,
  parseLocalnetManifest,
  type RpcChainOptions,
} from "@cpay/sdk/chain";
import type { LocalnetProcess } from "./localnet-process";

export function localnetManifestOf(localnet: Pick<LocalnetProcess, "manifestPath">): LocalnetManifest {
  return parseLocalnetManifest(JSON.parse(readFileSync(localnet.manifestPath, "utf8")));
}

/** The caller closes the port. */
export function connectToLocalnet(
  localnet: LocalnetProcess,
  through: Partial<Pick<RpcChainOptions, "rpcUrl" | "wsUrl" | "onWarning">> = {},
): Promise<ChainPort> {
  const manifest = localnetManifestOf(localnet);
  return connectRpcChain({
    rpcUrl: localnet.rpcUrl(),
    wsUrl: localnet.wsUrl(),
    programId: manifest.programId,
    usdgMint: manifest.usdgMint,
    ...through,
  });
}
