/**
 * Public transfers per second through the API against the raw SDK call it wraps, both over the
 * same RPC: the localnet as its own process (400 ms slots), the service in a child process
 * connected to it (api-server-process.ts `api` with the localnet's manifest), autocannon posting
 * `POST /v1/transfers` (public) at TRANSFER_CONCURRENCY for LOAD_SECONDS; the baseline is
 * `transferPublic` with its record on the service's own chain port (`connectRpcChain` to the same
 * localnet) at the same concurrency for as long, in that child. Each call of either returns once
 * its transaction landed. Twice: all from one sender, and spread over TRANSFER_CONCURRENCY senders.
 * Goal: at least 0.5x, with no failed request.
 */
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { startLocalnetProcess } from "../support/localnet-process";
import { LOCALNET_MANIFEST_ENV } from "./bench-connection";
import type { BenchEntry, BenchResult } from "./bench-entry";

const CHILD = fileURLToPath(new URL("./api-server-process.ts", import.meta.url));
const SLOT_MS = 400;
const LOAD_SECONDS = Number(process.env.BENCH_RPC_LOAD_SECONDS ?? 15);
const TRANSFER_CONCURRENCY = 4;

async function startChild(
  manifestPath: string,
): Promise<{ child: ChildProcess; url: string; keys: string[] }> {
  const child = fork(CHILD, ["api", String(TRANSFER_CONCURRENCY)], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, [LOCALNET_MANIFEST_ENV]: manifestPath },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    if (line.startsWith("{")) {
      const { url, keys } = JSON.parse(line) as { url: string; keys: string[] };
      return { child, url, keys };
    }
  }
  throw new Error("bench child api (over RPC) exited before it was ready");
}

function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Transfers per second and failed requests of the API, one autocannon connection per key. */
async function apiLoad(
  url: string,
  keys: readonly string[],
): Promise<{ rate: number; failed: number; sent: number }> {
  const results = await Promise.all(
    Array.from({ length: TRANSFER_CONCURRENCY }, (_, i) =>
      load({
        url: `${url}/v1/transfers`,
        method: "POST",
        connections: 1,
        duration: LOAD_SECONDS,
        headers: { authorization: `Bearer ${keys[i % keys.length]}`, "content-type": "application/json" },
        body: JSON.stringify({ to: "@sink", amount: "0.01", confidential: false }),
      }),
    ),
  );
  const sent = results.reduce((sum, r) => sum + r.requests.total, 0);
  const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0);
  return { rate: Number(((sent - failed) / LOAD_SECONDS).toFixed(1)), failed, sent };
}

/** The raw SDK's transfers per second in the child, its loops spread over the first `senders`. */
async function sdkLoad(child: ChildProcess, senders: number): Promise<number> {
  child.send({ seconds: LOAD_SECONDS, concurrency: TRANSFER_CONCURRENCY, senders });
  const [{ latencies }] = (await once(child, "message")) as [{ latencies: number[] }];
  return Number((latencies.length / LOAD_SECONDS).toFixed(1));
}

export const rpcApiThroughput: BenchEntry = {
  name: "rpc api throughput",
  async run(): Promise<BenchResult[]> {
    const localnet = await startLocalnetProcess({ slotMs: SLOT_MS });
    try {
      const api = await startChild(localnet.manifestPath);
      try {
        const results: BenchResult[] = [];
        // One sender: the API makes an account's transfers one at a time (its balance check holds
        // until the transfer landed), the SDK loops do not. N senders: the same concurrency spread.
        for (const senders of [1, TRANSFER_CONCURRENCY]) {
          const sdk = await sdkLoad(api.child, senders);
          const through = await apiLoad(api.url, api.keys.slice(0, senders));
          const label = `${TRANSFER_CONCURRENCY} at once from ${senders} sender${senders === 1 ? "" : "s"}`;
          results.push(
            {
              name: `POST /v1/transfers (public) over RPC, ${label}`,
              unit: "transfers/s",
              value: through.rate,
              baselineName: "raw SDK transferPublic over the same RPC",
              baseline: sdk,
              goal: 0.5,
              higherIsBetter: true,
            },
            {
              name: `POST /v1/transfers over RPC, ${label}, ${LOAD_SECONDS} s: failed`,
              unit: "requests",
              value: through.failed,
              baselineName: "requests sent",
              baseline: through.sent,
              goal: 0,
            },
          );
        }
        return results;
      } finally {
        // SIGTERM: the child exits and takes its indexer process with it.
        api.child.kill("SIGTERM");
        await once(api.child, "exit");
      }
    } finally {
      await localnet.remove();
    }
  },
};
