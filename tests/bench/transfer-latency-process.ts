/**
 * The child process of the latency benches: the service over the localnet process (bench-connection.ts)
 * with a funded `@payer`, its service-custody agent `@payer/bot` and a `@sink` recipient; prints one
 * JSON line `{url, payerKey, agentKey}` once ready (rpc-transfer-latency.ts). With the argument
 * `self-custody`, also a self-custody agent `@payer/host`, funded public and confidential, and the
 * line adds `host`: what its host is given to run it (the agent's settings but the RPC URLs, which
 * the bench has from the localnet) (mcp-local-pay-latency.ts).
 */
import { createAccount, createAgent, fundTestAccount, issueApiKey, withReserveSpend } from "@cpay/api";
import {
  deriveAgentConfidentialSecret,
  exportConfidentialSecret,
  importConfidentialSecret,
} from "@cpay/sdk/confidential";
import { startBenchService } from "./bench-connection";

process.on("SIGTERM", () => process.exit(0));

/** What the `self-custody` line gives the host of `@payer/host`. */
export interface HostSettings {
  readonly apiKey: string;
  readonly signerSecret: string;
  readonly confidentialSecret: string;
}

const USDG = 1_000_000n;
const { service, faucet } = await startBenchService();
const context = service.context;
const verified = { type: "business", kycStatus: "verified" } as const;
await createAccount(context, { handle: "sink", ...verified });
const { account: payer, confidentialSecret: payerSecret } = await createAccount(context, {
  handle: "payer",
  ...verified,
});
await fundTestAccount(context, faucet, payer, { confidential: 1_000n * USDG, public: 1_000n * USDG });
/** The owner's reserve spend, as POST /v1/agents runs it. */
const agentOfPayer = (name: string, custody: "service" | "self") =>
  withReserveSpend(context, payer.id, () =>
    createAgent(context, payer, {
      name,
      spend_policy: {
        per_transaction_limit_usdg: 100,
        daily_limit_usdg: 10_000,
        hitl_threshold_usdg: 50,
        assets: ["USDG"],
      },
      custody,
    }),
  );
const { agent } = await agentOfPayer("bot", "service");
await fundTestAccount(context, faucet, agent, { confidential: 1_000n * USDG, public: 0n });
const payerKey = await issueApiKey(context, { accountId: payer.id, name: "bench", environment: "test" });
const agentKey = await issueApiKey(context, { accountId: agent.id, name: "bench", environment: "test" });
const host = process.argv[2] === "self-custody" ? await selfCustodyHost() : undefined;
console.log(JSON.stringify({ url: service.url, payerKey: payerKey.value, agentKey: agentKey.value, host }));

async function selfCustodyHost(): Promise<HostSettings> {
  const { agent: hosted, signerSecret } = await agentOfPayer("host", "self");
  if (signerSecret === null) throw new Error("a self-custody agent came without its signer");
  await fundTestAccount(context, faucet, hosted, { confidential: 1_000n * USDG, public: 1_000n * USDG });
  const key = await issueApiKey(context, { accountId: hosted.id, name: "bench", environment: "test" });
  // What the owner derives in its own client and hands to the agent's host.
  const confidentialSecret = exportConfidentialSecret(
    deriveAgentConfidentialSecret(importConfidentialSecret(payerSecret), "payer/host"),
  );
  return { apiKey: key.value, signerSecret, confidentialSecret };
}
