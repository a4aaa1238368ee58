import { createEmbeddedCluster, type EmbeddedCluster } from "@cpay/sdk/cluster";
import { exitOnSignals, type Localnet, parseAllowedOrigins, startLocalnet } from "@cpay/sdk/localnet";
import { type DemoAccounts, ensureDemoAccounts } from "./admin/demo-accounts";
import { integerFromEnv } from "./config";
import { type RunningService, startService } from "./service";

function banner(
  service: RunningService,
  localnet: Localnet,
  cluster: EmbeddedCluster,
  demo: DemoAccounts,
): string {
  const api = service.url;
  const auth = '-H "Authorization: Bearer $CPAY_KEY"';
  return [
    "",
    "cpay is running (embedded cluster; nothing here touches mainnet-beta)",
    `  API:            ${api}/v1   (OpenAPI: ${api}/v1/openapi.json)`,
    `  admin:          ${service.admin?.url ?? "off"}   (npm run admin -- --help)`,
    `  Solana RPC:     ${localnet.rpcUrl}   PubSub: ${localnet.wsUrl}`,
    `  program id:     ${cluster.programId}`,
    `  USDG mint:      ${cluster.usdgMint}`,
    `  fee reserve:    ${cluster.feeReserve}`,
    "",
    `  @demo (business, KYC verified, 1,000 USDG confidential + 100 public) pays @merchant.`,
    "  Test API key for @demo (shown once; a new one is issued at every start):",
    "",
    `export CPAY_KEY=${demo.key.value}`,
    "",
    ...(demo.demoSecret === null
      ? ["  @demo existed already: its confidential secret was shown when it was created."]
      : [
          "  @demo's confidential secret (shown ONCE; decrypts its amounts client-side, makes balance proofs):",
          `    ${demo.demoSecret}`,
        ]),
    "",
    '  Try it (README.md, "Using the API", has more):',
    `    curl -s ${api}/v1/accounts/me ${auth}`,
    `    curl -s -X POST ${api}/v1/transfers ${auth} -H "Content-Type: application/json" -d '{"to": "@merchant", "amount": "12.50"}'`,
    `    curl -s ${api}/v1/transfers ${auth}`,
    `    curl -s ${api}/v1/accounts/me/balances ${auth}`,
    "",
    "Ctrl-C to stop.",
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const cluster = await createEmbeddedCluster({
    slotMs: integerFromEnv(process.env, "LOCALNET_SLOT_MS", 400, 1, 60_000),
  });
  let localnet: Localnet | null = null;
  let service: RunningService | null = null;
  const stop = async () => {
    await service?.close();
    await localnet?.close();
    cluster.stop();
  };
  try {
    service = await startService({ cluster, staleData: "archive", admin: true });
    if (service.archivedDatabase !== null) {
      console.log(
        `archived the previous run's database to ${service.archivedDatabase}: the embedded chain lives in ` +
          "memory, so its accounts and transfers described a chain that no longer exists; this run starts empty",
      );
    }
    // The simulator's: the demo accounts are funded from the embedded cluster's USDG faucet.
    const demo = await ensureDemoAccounts(service.context, cluster);
    // Served last: a client that sees the RPC answer finds the program's config (registrar = the
    // fee reserve) and the demo accounts already in place.
    localnet = await startLocalnet({
      cluster,
      rpcPort: integerFromEnv(process.env, "LOCALNET_RPC_PORT", 8899, 0, 65535),
      wsPort: integerFromEnv(process.env, "LOCALNET_WS_PORT", 8900, 0, 65535),
      allowedOrigins: parseAllowedOrigins(process.env.LOCALNET_ALLOWED_ORIGINS),
    });
    console.log(banner(service, localnet, cluster, demo));
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }

  exitOnSignals(stop);
}

main().catch((error: unknown) => {
  console.error(`cpay: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
