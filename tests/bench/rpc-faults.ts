/**
 * "rpc faults": the service and its indexer behind the fault proxy (tests/support/fault-world.ts)
 * in front of the localnet process at 400 ms slots. The same transfers are timed twice in one run:
 * clean, then with 10% of sends dropped and 200 ms added to every RPC answer. Reported per kind:
 * the success rate under faults (goal: 100%) and the p50 POST -> confirmed in slots beside the
 * clean run's.
 */
import { randomUUID } from "node:crypto";
import { startFaultWorld } from "../support/fault-world";
import type { BenchEntry, BenchResult } from "./bench-entry";
import { BENCH_SERVICE_LIMITS } from "./bench-limits";
import { benchScale } from "./bench-scale";
import { median } from "./transfer-cost";

const SLOT_MS = 400;
const POLL_MS = 20;
const RUNS = benchScale("BENCH_FAULT_RUNS", { full: 6, smoke: 1 });
const CONFIRM_TIMEOUT_MS = 120_000;
const USDG = 1_000_000n;

const KINDS = [
  { label: "public", confidential: false },
  { label: "confidential", confidential: true },
] as const;

/** Milliseconds from the POST to the first read that says `confirmed`, or null if it did not confirm. */
async function timeTransfer(url: string, key: string, confidential: boolean): Promise<number | null> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const started = performance.now();
  const created = await fetch(`${url}/v1/transfers`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": randomUUID() },
    body: JSON.stringify({ to: "@sink", amount: "0.01", confidential }),
  });
  const body = (await created.json()) as { transfer_id?: string; status?: string };
  if (!created.ok || body.transfer_id === undefined) return null;
  let status = body.status;
  while (status === "pending") {
    if (performance.now() - started > CONFIRM_TIMEOUT_MS) return null;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const read = await fetch(`${url}/v1/transfers/${body.transfer_id}`, { headers });
    status = ((await read.json()) as { status?: string }).status;
  }
  return status === "confirmed" ? performance.now() - started : null;
}

const slots = (ms: number) => Number((ms / SLOT_MS).toFixed(2));

export const rpcFaults: BenchEntry = {
  name: "rpc faults",
  async run(): Promise<BenchResult[]> {
    const world = await startFaultWorld({ slotMs: SLOT_MS, seed: 23, env: BENCH_SERVICE_LIMITS });
    try {
      await world.account("sink");
      const payer = await world.account("payer", { public: 1_000n * USDG, confidential: 1_000n * USDG });
      const url = world.service.url;
      const measure = async () => {
        const times = KINDS.map(() => [] as number[]);
        const failures = KINDS.map(() => 0);
        for (let run = 0; run < RUNS; run++) {
          for (const [index, kind] of KINDS.entries()) {
            const ms = await timeTransfer(url, payer.key, kind.confidential);
            if (ms === null) failures[index] = (failures[index] ?? 0) + 1;
            else times[index]?.push(ms);
          }
        }
        return { times, failures };
      };
      // One of each first: starts the proof workers and warms every path, which is not measured.
      for (const kind of KINDS) await timeTransfer(url, payer.key, kind.confidential);
      const clean = await measure();
      world.proxy.set({ dropSends: 0.1, latencyMs: 200 });
      const faulty = await measure();
      world.proxy.clear();
      return KINDS.flatMap((kind, index): BenchResult[] => {
        const succeeded = faulty.times[index]?.length ?? 0;
        return [
          {
            name: `${kind.label} success rate, 10% dropped sends + 200 ms RPC latency (${RUNS} transfers)`,
            unit: "%",
            value: Number(((100 * succeeded) / RUNS).toFixed(1)),
            baselineName: "goal",
            baseline: 100,
            goal: 1,
            higherIsBetter: true,
          },
          {
            name: `${kind.label} POST -> confirmed p50 under those faults (${world.proxy.stats.dropped.length} sends dropped in all)`,
            unit: "slots",
            value: slots(median(faulty.times[index] ?? [])),
            baselineName: `clean run p50 (${clean.failures[index]} failed)`,
            baseline: slots(median(clean.times[index] ?? [])),
          },
        ];
      });
    } finally {
      await world.close();
    }
  },
};
