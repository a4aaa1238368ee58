import { startLocalnetProcess } from "../support/localnet-process";
import { forkBenchChild, stopBenchChild } from "./bench-child";
import type { BenchEntry, BenchResult } from "./bench-entry";
import { benchScale } from "./bench-scale";
import { percentile, SLOT_MS, slots, untilConfirmed } from "./slot-latency";
import { median } from "./transfer-cost";

const RUNS = benchScale("BENCH_LATENCY_RUNS", { full: 9, smoke: 1 });

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
  const transferId = body.transfer_id;
  await untilConfirmed(
    transferId,
    body.status,
    async () => {
      const read = await fetch(`${url}/v1/transfers/${transferId}`, { headers });
      return ((await read.json()) as { status?: string }).status;
    },
    started,
  );
  return { answered, confirmed: performance.now() - started };
}

export const rpcTransferLatency: BenchEntry = {
  name: "rpc transfer latency",
  async run(): Promise<BenchResult[]> {
    const localnet = await startLocalnetProcess({ slotMs: SLOT_MS });
    try {
      const { child, ready } = await forkBenchChild<{ url: string } & Keys>(
        "./transfer-latency-process.ts",
        [],
        localnet.manifestPath,
      );
      const { url } = ready;
      const keys: Keys = { payerKey: ready.payerKey, agentKey: ready.agentKey };
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
        await stopBenchChild(child);
      }
    } finally {
      await localnet.remove();
    }
  },
};
