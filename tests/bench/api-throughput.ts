/**
 * The `/v1` service under load, each figure beside a baseline measured in the same run:
 * - `GET /v1/accounts/me` throughput (auth, rate limit, usage stamp, KYC check, logging) against a
 *   bare Express handler returning the same JSON (goal: at least 0.5x);
 * - `POST /v1/transfers` on the public path (validation, recipient resolution, balance check, the
 *   transfer with its on-chain record, the row, the event, usage) against the raw SDK call it wraps
 *   (`transferPublic` with a record), p50 latency and throughput at the same concurrency;
 * - a 30 s load of `POST /v1/transfers`: failed requests (goal: zero).
 * Servers run in a child process (api-server-process.ts) so autocannon never shares their thread.
 */
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import type { BenchEntry, BenchResult } from "./bench-entry";

const CHILD = fileURLToPath(new URL("./api-server-process.ts", import.meta.url));
const READ_SECONDS = Number(process.env.BENCH_API_READ_SECONDS ?? 10);
const LOAD_SECONDS = Number(process.env.BENCH_API_LOAD_SECONDS ?? 30);
const TRANSFER_CONCURRENCY = 4;

async function startChild(mode: "bare" | "api"): Promise<{ child: ChildProcess; url: string; key: string }> {
  const child = fork(CHILD, [mode], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    if (line.startsWith("{")) {
      const { url, key } = JSON.parse(line) as { url: string; key: string };
      return { child, url, key };
    }
  }
  throw new Error(`bench child ${mode} exited before it was ready`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  child.kill("SIGKILL");
  await once(child, "exit");
}

function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export const apiThroughput: BenchEntry = {
  name: "api throughput",
  async run(): Promise<BenchResult[]> {
    const bare = await startChild("bare");
    const bareRead = await load({
      url: `${bare.url}/v1/accounts/me`,
      connections: 10,
      duration: READ_SECONDS,
    });
    await stopChild(bare.child);

    const api = await startChild("api");
    const auth = { authorization: `Bearer ${api.key}` };
    const apiRead = await load({
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

    const transfers = await load({
      url: `${api.url}/v1/transfers`,
      method: "POST",
      connections: TRANSFER_CONCURRENCY,
      duration: LOAD_SECONDS,
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ to: "@sink", amount: "0.01", confidential: false }),
    });
    await stopChild(api.child);

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
      },
    ];
  },
};
