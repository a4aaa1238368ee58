/**
 * Public transfers per second through the API against the raw SDK call it wraps, both over the
 * same RPC: the localnet as its own process (400 ms slots), the service in a child process
 * connected to it (api-server-process.ts `api` with the localnet's manifest), autocannon posting
 * `POST /v1/transfers` (public) at TRANSFER_CONCURRENCY for LOAD_SECONDS; the baseline is
 * `transferPublic` with its record on the service's own chain port (`connectRpcChain` to the same
 * localnet) at the same concurrency for as long, in that child. Each call of either returns once
 * its transaction landed. Goal: at least 0.5x, with no failed request.
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

async function startChild(manifestPath: string): Promise<{ child: ChildProcess; url: string; key: string }> {
  const child = fork(CHILD, ["api"], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, [LOCALNET_MANIFEST_ENV]: manifestPath },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    if (line.startsWith("{")) {
      const { url, key } = JSON.parse(line) as { url: string; key: string };
      return { child, url, key };
    }
  }
  throw new Error("bench child api (over RPC) exited before it was ready");
}

function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

export const rpcApiThroughput: BenchEntry = {
  name: "rpc api throughput",
  async run(): Promise<BenchResult[]> {
    const localnet = await startLocalnetProcess({ slotMs: SLOT_MS });
    try {
      const api = await startChild(localnet.manifestPath);
      try {
        api.child.send({ seconds: LOAD_SECONDS, concurrency: TRANSFER_CONCURRENCY });
        const [{ latencies }] = (await once(api.child, "message")) as [{ latencies: number[] }];
        const transfers = await load({
          url: `${api.url}/v1/transfers`,
          method: "POST",
          connections: TRANSFER_CONCURRENCY,
          duration: LOAD_SECONDS,
          headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
          body: JSON.stringify({ to: "@sink", amount: "0.01", confidential: false }),
        });
        const failed = transfers.non2xx + transfers.errors + transfers.timeouts;
        return [
          {
            name: `POST /v1/transfers (public) throughput over RPC, ${TRANSFER_CONCURRENCY} at once`,
            unit: "transfers/s",
            value: Number(((transfers.requests.total - failed) / LOAD_SECONDS).toFixed(1)),
            baselineName: "raw SDK transferPublic over the same RPC",
            baseline: Number((latencies.length / LOAD_SECONDS).toFixed(1)),
            goal: 0.5,
            higherIsBetter: true,
          },
          {
            name: `POST /v1/transfers over RPC ${LOAD_SECONDS} s load: failed`,
            unit: "requests",
            value: failed,
            baselineName: "requests sent",
            baseline: transfers.requests.total,
            goal: 0,
          },
        ];
      } finally {
        api.child.kill("SIGKILL");
        await once(api.child, "exit");
      }
    } finally {
      await localnet.remove();
    }
  },
};
