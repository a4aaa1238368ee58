/**
 * `POST /v1/transfers` -> `confirmed` over RPC: the localnet as its own process at 400 ms slots, the
 * service in a child process connected to it (transfer-latency-process.ts), and this process a
 * client that posts a transfer and reads `GET /v1/transfers/:id` every 20 ms until it says
 * `confirmed`. Public, confidential and agent-confidential transfers (a custodial agent within its
 * policy), RUNS of each one after the other, in slots (latency / slot time): median and p90 beside
 * the goal (public 2, confidential 3, agent confidential 4 slots); the medians of the POST's own
 * answer time beside them say how much of it is the request and how much the wait for `confirmed`.
 */
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startLocalnetProcess } from "../support/localnet-process";
import { LOCALNET_MANIFEST_ENV } from "./bench-connection";
import type { BenchEntry, BenchResult } from "./bench-entry";
import { median } from "./transfer-cost";

const CHILD = fileURLToPath(new URL("./transfer-latency-process.ts", import.meta.url));
const SLOT_MS = 400;
const POLL_MS = 20;
const RUNS = Number(process.env.BENCH_LATENCY_RUNS ?? 9);
const CONFIRM_TIMEOUT_MS = 60_000;

interface Kind {
  readonly label: string;
  readonly key: "payerKey" | "agentKey";
  readonly confidential: boolean;
  readonly goalSlots: number;
}

const KINDS: readonly Kind[] = [
  { label: "public", key: "payerKey", confidential: false, goalSlots: 2 },
  { label: "confidential", key: "payerKey", confidential: true, goalSlots: 3 },
  { label: "agent confidential", key: "agentKey", confidential: true, goalSlots: 4 },
];

type Keys = Record<Kind["key"], string>;

async function startChild(manifestPath: string): Promise<{ child: ChildProcess; url: string; keys: Keys }> {
  const child = fork(CHILD, [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, [LOCALNET_MANIFEST_ENV]: manifestPath },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    if (line.startsWith("{")) {
      const { url, payerKey, agentKey } = JSON.parse(line) as { url: string } & Keys;
      return { child, url, keys: { payerKey, agentKey } };
    }
  }
  throw new Error("bench child transfer-latency exited before it was ready");
}

/** Milliseconds from the POST to its answer and to the first read that says `confirmed`. */
async function timeTransfer(url: string, key: string, confidential: boolean) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const started = performance.now();
  const created = await fetch(`${url}/v1/transfers`, {
    method: "POST",
    headers,
    body: JSON.stringify({ to: "@sink", amount: "0.01", confidential }),
  });
  const answered = performance.now() - started;
  const body = (await created.json()) as { transfer_id?: string; status?: string };
  if (!created.ok || body.transfer_id === undefined) {
    throw new Error(`POST /v1/transfers answered ${created.status}: ${JSON.stringify(body)}`);
  }
  let status = body.status;
  while (status !== "confirmed") {
    if (status !== "pending") throw new Error(`transfer ${body.transfer_id} is ${status}, not on its way`);
    if (performance.now() - started > CONFIRM_TIMEOUT_MS)
      throw new Error(`transfer ${body.transfer_id} not confirmed in time`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const read = await fetch(`${url}/v1/transfers/${body.transfer_id}`, { headers });
    status = ((await read.json()) as { status?: string }).status;
  }
  return { answered, confirmed: performance.now() - started };
}

/** The nearest-rank percentile `p` (0-100) of `samples`. */
function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const slots = (ms: number) => Number((ms / SLOT_MS).toFixed(2));

export const rpcTransferLatency: BenchEntry = {
  name: "rpc transfer latency",
  async run(): Promise<BenchResult[]> {
    const localnet = await startLocalnetProcess({ slotMs: SLOT_MS });
    try {
      const { child, url, keys } = await startChild(localnet.manifestPath);
      try {
        // One of each first: starts the proof workers and warms every path, which is not measured.
        for (const kind of KINDS) await timeTransfer(url, keys[kind.key], kind.confidential);
        const samples = KINDS.map(() => ({ answered: [] as number[], confirmed: [] as number[] }));
        for (let run = 0; run < RUNS; run++) {
          for (const [index, kind] of KINDS.entries()) {
            const { answered, confirmed } = await timeTransfer(url, keys[kind.key], kind.confidential);
            samples[index]?.answered.push(answered);
            samples[index]?.confirmed.push(confirmed);
          }
        }
        return KINDS.flatMap((kind, index): BenchResult[] => {
          const { answered, confirmed } = samples[index] ?? { answered: [], confirmed: [] };
          const goal = { unit: "slots", baselineName: "goal", baseline: kind.goalSlots, goal: 1 };
          return [
            {
              name: `${kind.label} POST -> confirmed, median of ${RUNS}`,
              value: slots(median(confirmed)),
              ...goal,
            },
            {
              name: `${kind.label} POST -> confirmed, p90`,
              value: slots(percentile(confirmed, 90)),
              ...goal,
            },
            {
              name: `${kind.label} POST answered, median`,
              unit: "slots",
              value: slots(median(answered)),
              baselineName: "POST -> confirmed median",
              baseline: slots(median(confirmed)),
            },
          ];
        });
      } finally {
        // SIGTERM: the child exits and takes its indexer process with it.
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    } finally {
      await localnet.remove();
    }
  },
};
