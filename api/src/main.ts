/**
 * The API process of the start command (scripts/start.sh): it reaches the chain only over JSON-RPC
 * + PubSub, through the localnet's manifest (LOCALNET_DIR) unless SOLANA_RPC_URL says otherwise,
 * ensures the demo accounts, prints how to use them, and runs until SIGINT/SIGTERM. Its database
 * and the localnet's chain store both persist under ./data, so a restart carries on where it stopped.
 */

import { type DemoAccounts, ensureDemoAccounts } from "./admin/demo-accounts";
import { type RunningService, startService } from "./service";

function banner(service: RunningService, demo: DemoAccounts): string {
  const { chain } = service.context;
  const api = service.url;
  const auth = '-H "Authorization: Bearer $CPAY_KEY"';
  return [
    "",
    "cpay is running (test cluster; nothing here touches mainnet-beta)",
    `  API:            ${api}/v1   (OpenAPI: ${api}/v1/openapi.json)`,
    `  admin:          ${service.admin?.url ?? "off"}   (npm run admin -- --help)`,
    `  chain:          ${service.connection.description}`,
    `  program id:     ${chain.programId}`,
    `  USDG mint:      ${chain.usdgMint}`,
    `  fee reserve:    ${service.context.feePayer.address}`,
    `  live:           ${
      service.liveConnection === null
        ? "off (svc_live_ keys are refused: set LIVE_RPC_URL and the LIVE_ settings)"
        : `${service.liveConnection.description}, its own database (svc_live_ keys)`
    }`,
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
    `  Dashboard for @demo: ${demo.enrollment.link}`,
    "    (a one-time link that registers a passkey, valid until " +
      `${demo.enrollment.expiresAt}; later, sign in at ${service.context.dashboardOrigin()}/;`,
    "    npm run admin -- accounts enroll-link demo issues a new link)",
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
  let service: RunningService | null = null;
  const stop = async () => {
    await service?.close();
  };
  try {
    service = await startService({ admin: true });
    const faucet = service.connection.testFaucet;
    if (faucet === null) throw new Error("the demo accounts need a test cluster with a USDG faucet");
    const demo = await ensureDemoAccounts(service.context, faucet);
    console.log(banner(service, demo));
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }

  // The first SIGINT/SIGTERM stops once and exits; a second one cannot cut the shutdown short.
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`cpay: stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((error: unknown) => {
  console.error(`cpay: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
