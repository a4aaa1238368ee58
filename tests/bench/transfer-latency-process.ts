import { createAccount, createAgent, fundTestAccount, issueApiKey, withReserveSpend } from "@cpay/api";
import { startBenchService } from "./bench-connection";

process.on("SIGTERM", () => process.exit(0));

const USDG = 1_000_000n;
const { service, faucet } = await startBenchService();
const context = service.context;
const verified = { type: "business", kycStatus: "verified" } as const;
await createAccount(context, { handle: "sink", ...verified });
const { account: payer } = await createAccount(context, { handle: "payer", ...verified });
await fundTestAccount(context, faucet, payer, { confidential: 1_000n * USDG, public: 1_000n * USDG });
// The owner's reserve spend, as POST /v1/agents runs it.
const { agent } = await withReserveSpend(context, payer.id, () =>
  createAgent(context, payer, {
    name: "bot",
    spend_policy: {
      per_transaction_limit_usdg: 100,
      daily_limit_usdg: 10_000,
      hitl_threshold_usdg: 50,
      assets: ["USDG"],
    },
  }),
);
await fundTestAccount(context, faucet, agent, { confidential: 1_000n * USDG, public: 0n });
const payerKey = await issueApiKey(context, { accountId: payer.id, name: "bench", environment: "test" });
const agentKey = await issueApiKey(context, { accountId: agent.id, name: "bench", environment: "test" });
console.log(JSON.stringify({ url: service.url, payerKey: payerKey.value, agentKey: agentKey.value }));
