/**
 * `npm run localnet`: an embedded cluster served as a Solana node on 127.0.0.1 (JSON-RPC on 8899,
 * PubSub on 8900), like `solana-test-validator` but in-process and seconds to start.
 *
 * Environment: LOCALNET_RPC_PORT, LOCALNET_WS_PORT (defaults 8899/8900), LOCALNET_SLOT_MS (default
 * 400), LOCALNET_ALLOWED_ORIGINS (web origins that may call it; none by default), AGENT_POLICY_SO (the program to deploy; the cluster's default path otherwise). When the
 * program is not built yet it starts without it and says so, since the rest (airdrops, transfers,
 * USDG) is still useful. Prints the URLs and the addresses a client needs, then runs until
 * SIGINT/SIGTERM and shuts down cleanly.
 */
import { existsSync } from "node:fs";
import { agentPolicyProgramPath, createEmbeddedCluster } from "../cluster/index";
import { parseAllowedOrigins } from "./allowed-origins";
import { exitOnSignals } from "./exit-on-signals";
import { startLocalnet } from "./start-localnet";

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${name} must be a TCP port, got ${raw}`);
  return port;
}

async function main(): Promise<void> {
  const slotMs = process.env.LOCALNET_SLOT_MS ? Number(process.env.LOCALNET_SLOT_MS) : undefined;
  const programPath = agentPolicyProgramPath();
  const programBuilt = existsSync(programPath);
  const cluster = await createEmbeddedCluster({ slotMs, programPath: programBuilt ? programPath : null });
  const localnet = await startLocalnet({
    cluster,
    rpcPort: portFromEnv("LOCALNET_RPC_PORT", 8899),
    wsPort: portFromEnv("LOCALNET_WS_PORT", 8900),
    allowedOrigins: parseAllowedOrigins(process.env.LOCALNET_ALLOWED_ORIGINS),
  });

  console.log(
    [
      "cpay localnet (embedded LiteSVM cluster)",
      `  JSON-RPC URL:   ${localnet.rpcUrl}`,
      `  WebSocket URL:  ${localnet.wsUrl}`,
      `  program id:     ${cluster.programId}${programBuilt ? "" : ` (NOT deployed: ${programPath} missing; npm run build:program)`}`,
      `  USDG mint:      ${cluster.usdgMint}`,
      `  fee reserve:    ${cluster.feeReserve}`,
      `  genesis hash:   ${cluster.genesisHash}`,
      "Ctrl-C to stop.",
    ].join("\n"),
  );

  exitOnSignals(async () => {
    cluster.stop();
    await localnet.close();
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
