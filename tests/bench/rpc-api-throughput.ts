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
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { startLocalnetProcess } from "../support/localnet-process";
import {
  forkBenchChild,
  type KeyedLoad,
  loadPerKey,
  publicTransferRequest,
  stopBenchChild,
} from "./bench-child";
import type { BenchEntry, BenchResult } from "./bench-entry";
import { benchScale } from "./bench-scale";

const SLOT_MS = 400;
const LOAD_SECONDS = benchScale("BENCH_RPC_LOAD_SECONDS", { full: 15, smoke: 2 });
const TRANSFER_CONCURRENCY = 4;

/** Transfers per second and failed requests of the API, one autocannon connection per key. */
function apiLoad(url: string, keys: readonly string[]): Promise<KeyedLoad> {
  const request = publicTransferRequest(url);
  return loadPerKey({ keys, connections: TRANSFER_CONCURRENCY, seconds: LOAD_SECONDS, request });
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
      const started = await forkBenchChild<{ url: string; keys: string[] }>(
        "./api-server-process.ts",
        ["api", String(TRANSFER_CONCURRENCY)],
        localnet.manifestPath,
      );
      const api = { child: started.child, ...started.ready };
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
              correctness: true,
            },
          );
        }
        return results;
      } finally {
        await stopBenchChild(api.child);
      }
    } finally {
      await localnet.remove();
    }
  },
};
