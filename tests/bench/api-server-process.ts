/**
 * The child process of the API benchmark (api-throughput.ts), so the load generator and the server
 * never share a thread. `bare`: a bare Express 5 handler answering a static account object on the
 * same machine (the baseline). `api`: the real service (embedded cluster, SQLite, logging to
 * /dev/null at info level, rate limits raised out of the way) with a funded `@bench` account and a
 * `@sink` recipient (a second argument N > 1: N senders `@bench0`.. instead, each with its key); it
 * also runs the raw SDK baseline on request (IPC), in the same process as the cluster, exactly as
 * the API calls it. `confidential`: the real service (as `api`, its proof pool
 * sized by `PROOF_WORKERS` when set) with N sender accounts (second argument), each holding a
 * confidential balance and its own key, and a `@sink` recipient (confidential-api-throughput.ts);
 * a third argument sets the embedded cluster's slot time in ms (default: the service's, 400).
 * `api` and `confidential` run over the localnet process instead when the bench names its manifest
 * (bench-connection.ts); the raw SDK baseline then goes over the same RPC.
 * Prints one JSON line `{url, key}` (`{url, keys}` for `confidential`) once ready.
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { createAccount, fundTestAccount, issueApiKey } from "@cpay/api";
import { transferPublic } from "@cpay/sdk/confidential";
import express from "express";
import { startBenchService } from "./bench-connection";

const mode = process.argv[2];
// A clean exit on SIGTERM lets `--cpu-prof` write its profile when profiling this process.
process.on("SIGTERM", () => process.exit(0));

if (mode === "bare") {
  const app = express();
  app.disable("x-powered-by");
  const account = {
    account_id: "acct_aaaaaaaaaaaaaaaaaaaaaaaaaa",
    handle: "@bench",
    type: "business",
    public_key: "11111111111111111111111111111111",
    kyc_status: "verified",
    created_at: new Date().toISOString(),
  };
  app.get("/v1/accounts/me", (_request, response) => {
    response.json(account);
  });
  const server = app.listen(0, "127.0.0.1", () => {
    const address = server.address() as { port: number };
    console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}`, key: "" }));
  });
} else if (mode === "api") {
  const { service, faucet } = await startBenchService();
  const context = service.context;
  // One `@bench` sender by default; a second argument N > 1 makes `@bench0`..`@bench<N-1>` instead.
  const senders = Number(process.argv[3] ?? 1);
  const handles = senders === 1 ? ["bench"] : Array.from({ length: senders }, (_, i) => `bench${i}`);
  const { account: sink } = await createAccount(context, {
    handle: "sink",
    type: "business",
    kycStatus: "verified",
  });
  const { walletSignerOf } = await import("@cpay/api/vault");
  const keys: string[] = [];
  const owners: Awaited<ReturnType<typeof walletSignerOf>>[] = [];
  for (const handle of handles) {
    const { account } = await createAccount(context, { handle, type: "business", kycStatus: "verified" });
    await fundTestAccount(context, faucet, account, { confidential: 0n, public: 10_000_000_000_000n });
    const key = await issueApiKey(context, { accountId: account.id, name: "bench", environment: "test" });
    keys.push(key.value);
    owners.push(await walletSignerOf(context, account.id));
  }
  process.on("message", async (message: { seconds: number; concurrency: number; senders?: number }) => {
    // The raw SDK call POST /v1/transfers (public path) wraps: the same transfer with its record,
    // the i-th of the concurrent loops sending from the i-th of the first `senders` (round robin).
    const using = message.senders ?? owners.length;
    const latencies: number[] = [];
    const deadline = performance.now() + message.seconds * 1000;
    await Promise.all(
      Array.from({ length: message.concurrency }, async (_, i) => {
        const owner = owners[i % using];
        if (owner === undefined) throw new Error("no sender");
        while (performance.now() < deadline) {
          const started = performance.now();
          await transferPublic(context.chain, {
            owner,
            mint: context.chain.usdgMint,
            recipient: sink.publicKey,
            amount: 10_000n,
            payer: context.feePayer,
            record: { transferId: new Uint8Array(randomBytes(16)) },
          });
          latencies.push(performance.now() - started);
        }
      }),
    );
    process.send?.({ latencies });
  });
  console.log(JSON.stringify({ url: service.url, key: keys[0], keys }));
} else if (mode === "confidential") {
  const slotMs = process.argv[4] === undefined ? undefined : Number(process.argv[4]);
  const { service, faucet } = await startBenchService({
    ...(slotMs === undefined ? {} : { slotMs }),
    ...(process.env.PROOF_WORKERS === undefined ? {} : { env: { PROOF_WORKERS: process.env.PROOF_WORKERS } }),
  });
  const context = service.context;
  await createAccount(context, { handle: "sink", type: "business", kycStatus: "verified" });
  const senders = Number(process.argv[3] ?? 16);
  const keys: string[] = [];
  for (let i = 0; i < senders; i++) {
    const { account } = await createAccount(context, {
      handle: `sender${i}`,
      type: "business",
      kycStatus: "verified",
    });
    await fundTestAccount(context, faucet, account, { confidential: 1_000_000_000n, public: 0n });
    const key = await issueApiKey(context, { accountId: account.id, name: "bench", environment: "test" });
    keys.push(key.value);
  }
  // CPU time so far of this (main) thread and of the whole process (with the proof workers), so
  // the bench can tell what one transfer costs each.
  process.on("message", () => {
    const main = process.threadCpuUsage();
    const all = process.cpuUsage();
    process.send?.({ mainMs: (main.user + main.system) / 1000, processMs: (all.user + all.system) / 1000 });
  });
  console.log(JSON.stringify({ url: service.url, keys }));
} else {
  console.error(`usage: api-server-process.ts bare|api|confidential (got ${mode})`);
  process.exit(2);
}
