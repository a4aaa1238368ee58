import { once } from "node:events";
import { autocannonLoad, forkBenchChild, stopBenchChild } from "./bench-child";
import type { BenchEntry, BenchResult } from "./bench-entry";
import { benchScale } from "./bench-scale";
import { median } from "./transfer-cost";

/** The bench child over a cluster of its own (`bare`: a bare Express handler; `api`: the service). */
async function startChild(mode: "bare" | "api") {
  const { child, ready } = await forkBenchChild<{ url: string; key: string }>("./api-server-process.ts", [
    mode,
  ]);
  return { child, ...ready };
}

const READ_SECONDS = benchScale("BENCH_API_READ_SECONDS", { full: 10, smoke: 1 });
const LOAD_SECONDS = benchScale("BENCH_API_LOAD_SECONDS", { full: 30, smoke: 2 });
const TRANSFER_CONCURRENCY = 4;

export const apiThroughput: BenchEntry = {
  name: "api throughput",
  async run(): Promise<BenchResult[]> {
    const bare = await startChild("bare");
    const bareRead = await autocannonLoad({
      url: `${bare.url}/v1/accounts/me`,
      connections: 10,
      duration: READ_SECONDS,
    });
    await stopBenchChild(bare.child);

    const api = await startChild("api");
    const auth = { authorization: `Bearer ${api.key}` };
    const apiRead = await autocannonLoad({
      url: `${api.url}/v1/accounts/me`,
      connections: 10,
      duration: READ_SECONDS,
      headers: auth,
    });
    if (apiRead.non2xx > 0 || apiRead.errors > 0) {
      throw new Error(
        `GET /v1/accounts/me failed under load: ${apiRead.non2xx} non-2xx, ${apiRead.errors} errors`,
      );
    }

    api.child.send({ seconds: READ_SECONDS, concurrency: TRANSFER_CONCURRENCY });
    const [{ latencies }] = (await once(api.child, "message")) as [{ latencies: number[] }];

    const transfers = await autocannonLoad({
      url: `${api.url}/v1/transfers`,
      method: "POST",
      connections: TRANSFER_CONCURRENCY,
      duration: LOAD_SECONDS,
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ to: "@sink", amount: "0.01", confidential: false }),
    });
    await stopBenchChild(api.child);

    const sdkThroughput = latencies.length / READ_SECONDS;
    const failed = transfers.non2xx + transfers.errors + transfers.timeouts;
    return [
      {
        name: "GET /v1/accounts/me",
        unit: "req/s",
        value: Math.round(apiRead.requests.average),
        baselineName: "bare Express handler",
        baseline: Math.round(bareRead.requests.average),
        goal: 0.5,
        higherIsBetter: true,
      },
      {
        name: "POST /v1/transfers (public) p50",
        unit: "ms",
        value: transfers.latency.p50,
        baselineName: "raw SDK transferPublic p50",
        baseline: Number(median(latencies).toFixed(2)),
      },
      {
        name: "POST /v1/transfers (public) throughput",
        unit: "transfers/s",
        value: Number((transfers.requests.total / LOAD_SECONDS).toFixed(1)),
        baselineName: "raw SDK transferPublic",
        baseline: Number(sdkThroughput.toFixed(1)),
        higherIsBetter: true,
      },
      {
        name: `POST /v1/transfers ${LOAD_SECONDS} s load: failed`,
        unit: "requests",
        value: failed,
        baselineName: "requests sent",
        baseline: transfers.requests.total,
        goal: 0,
        correctness: true,
      },
    ];
  },
};
