/**
 * The child process of the transfer latency bench (rpc-transfer-latency.ts): the real service
 * (SQLite, logging to /dev/null, rate limits out of the way) over the localnet process named by
 * `BENCH_LOCALNET_MANIFEST`, with `@payer` (public and confidential USDG), its custodial agent
 * `@payer/bot` (confidential USDG; a policy whose limits the bench's transfers stay far below, so
 * each executes rather than holds) and a `@sink` recipient. Prints one JSON line
 * `{url, payerKey, agentKey}` once ready.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createAccount,
  createAgent,
  fundTestAccount,
  issueApiKey,
  startService,
  withReserveSpend,
} from "@cpay/api";
import pino from "pino";
import { benchConnection } from "./bench-connection";

process.on("SIGTERM", () => process.exit(0));

const USDG = 1_000_000n;
const dataDir = mkdtempSync(join(tmpdir(), "cpay-bench-"));
const { connection, faucet } = await benchConnection();
const service = await startService({
  connection,
  env: {
    PORT: "0",
    DATABASE_URL: join(dataDir, "cpay.sqlite"),
    SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
    RATE_LIMIT_PER_MINUTE: "1000000000",
    AUTH_FAILURE_LIMIT_PER_MINUTE: "1000000000",
    RESERVE_DAILY_BUDGET_LAMPORTS: "1000000000000",
    LOG_LEVEL: "info",
  },
  dataDir,
  logDestination: pino.destination({ dest: openSync("/dev/null", "w"), sync: false }),
});
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
