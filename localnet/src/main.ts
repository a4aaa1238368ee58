/**
 * `npm run localnet`: an embedded cluster served as a Solana node on 127.0.0.1 (JSON-RPC on 8899,
 * PubSub on 8900), like `solana-test-validator` but in-process and seconds to start.
 *
 * Environment: LOCALNET_RPC_PORT, LOCALNET_WS_PORT (defaults 8899/8900), LOCALNET_SLOT_MS (default
 * 400), LOCALNET_ALLOWED_ORIGINS (web origins that may call it; none by default), AGENT_POLICY_SO
 * (the program to deploy; the cluster's default path otherwise), LOCALNET_DIR (where the chain
 * store keeps the chain across restarts, default ./data/localnet; empty = in memory only; the
 * former LOCALNET_LEDGER_DIR is read when it is unset, localnet-dir-env.ts),
 * LOCALNET_HISTORY_SLOTS (transaction history kept, default 216000 slots), LOCALNET_GENESIS (`bare`: a
 * new chain without the agent-policy program, so `npm run deploy` can be tried against it the way it
 * runs against devnet; unset: the program is deployed in genesis), LOCALNET_EXIT_WITH_STDIN
 * (1: shut down when stdin closes, so a test harness that dies, even by SIGKILL, takes its
 * localnet with it), LOCALNET_USDG_AUTO_APPROVE and LOCALNET_USDG_AUDITOR (how a new chain's USDG mint
 * treats confidential accounts, usdg-mint-env.ts). Once it serves it
 * writes `localnet.json` into the localnet directory (localnet-manifest.ts), which the service reads. When the program is not
 * built yet a new chain starts without it and says so, since the rest (airdrops, transfers, USDG) is
 * still useful. Prints the URLs and the addresses a client needs, then runs until SIGINT/SIGTERM
 * and shuts down cleanly (a final snapshot). A chain store that does not load stops it with the reason.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { LOCALNET_MANIFEST_FILE } from "@cpay/sdk/chain";
import { agentPolicyProgramPath, createEmbeddedCluster, type EmbeddedCluster } from "./cluster/index";
import { DEFAULT_LOCALNET_DIR, localnetDirFromEnv } from "./localnet-dir-env";
import { parseAllowedOrigins } from "./rpc/allowed-origins";
import { exitOnSignals } from "./rpc/exit-on-signals";
import { writeLocalnetManifest } from "./rpc/localnet-manifest";
import { startLocalnet } from "./rpc/start-localnet";
import { usdgMintSettingsFromEnv } from "./usdg-mint-env";

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${name} must be a TCP port, got ${raw}`);
  return port;
}

function historySlotsFromEnv(): bigint | undefined {
  const raw = process.env.LOCALNET_HISTORY_SLOTS;
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d+$/.test(raw)) throw new Error(`LOCALNET_HISTORY_SLOTS must be a number of slots, got ${raw}`);
  return BigInt(raw);
}

/** `LOCALNET_GENESIS`: true for `bare` (no program in genesis), false when unset. */
function bareGenesisFromEnv(): boolean {
  const raw = process.env.LOCALNET_GENESIS;
  if (raw === undefined || raw === "") return false;
  if (raw !== "bare") throw new Error(`LOCALNET_GENESIS must be "bare" or unset, got ${raw}`);
  return true;
}

async function main(): Promise<void> {
  const slotMs = process.env.LOCALNET_SLOT_MS ? Number(process.env.LOCALNET_SLOT_MS) : undefined;
  const bare = bareGenesisFromEnv();
  const programPath = agentPolicyProgramPath();
  const programBuilt = !bare && existsSync(programPath);
  const localnetDir = localnetDirFromEnv(process.env) ?? DEFAULT_LOCALNET_DIR;
  // The manifest of an earlier run names ports that may not be ours any more: a client must never
  // read it while this run starts (it is written again once this one serves).
  const manifestDir = localnetDir === "" ? DEFAULT_LOCALNET_DIR : localnetDir;
  rmSync(join(manifestDir, LOCALNET_MANIFEST_FILE), { force: true });
  const cluster = await createEmbeddedCluster({
    slotMs,
    programPath: programBuilt ? programPath : null,
    usdgMint: usdgMintSettingsFromEnv(process.env),
    ...(localnetDir === "" ? {} : { chainStoreDir: localnetDir, historySlots: historySlotsFromEnv() }),
  });
  const localnet = await startLocalnet({
    cluster,
    testClock: cluster.clock,
    rpcPort: portFromEnv("LOCALNET_RPC_PORT", 8899),
    wsPort: portFromEnv("LOCALNET_WS_PORT", 8900),
    allowedOrigins: parseAllowedOrigins(process.env.LOCALNET_ALLOWED_ORIGINS),
  });

  const manifestPath = writeLocalnetManifest(manifestDir, cluster, localnet);
  console.log(
    [
      "cpay localnet (embedded LiteSVM cluster)",
      `  manifest:       ${manifestPath} (what clients of this localnet read: URLs, ids, test keypairs)`,
      `  JSON-RPC URL:   ${localnet.rpcUrl}`,
      `  WebSocket URL:  ${localnet.wsUrl}`,
      `  program id:     ${cluster.programId}${programLine(cluster, bare, programPath)}`,
      `  USDG mint:      ${cluster.usdgMint}`,
      `  fee reserve:    ${cluster.feeReserve}`,
      `  genesis hash:   ${cluster.genesisHash}`,
      `  slot:           ${cluster.getSlot()}`,
      `  chain store:    ${chainStoreLine(cluster.chainStore)}`,
      "Ctrl-C to stop.",
    ].join("\n"),
  );

  exitOnSignals(async () => {
    cluster.stop();
    await localnet.close();
  });
  if (process.env.LOCALNET_EXIT_WITH_STDIN === "1") {
    // The parent holds the other end of stdin; it closes however the parent ends.
    process.stdin.on("end", () => process.kill(process.pid, "SIGTERM"));
    process.stdin.resume();
  }
}

function programLine(cluster: EmbeddedCluster, bare: boolean, programPath: string): string {
  if (cluster.deployment !== null) return "";
  if (bare && cluster.chainStore?.restored !== true) {
    return " (NOT deployed: LOCALNET_GENESIS=bare; deploy one with npm run deploy)";
  }
  return ` (NOT deployed: ${programPath} missing when this chain began; npm run build:program)`;
}

function chainStoreLine(store: EmbeddedCluster["chainStore"]): string {
  if (store === null) return "none (in memory only: LOCALNET_DIR is empty)";
  const torn =
    store.droppedTornBytes > 0 ? `, dropped a torn last record of ${store.droppedTornBytes} bytes` : "";
  return `${store.dir} (${store.restored ? "continued" : "new chain"}${torn})`;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
