/**
 * `npm run bench`: every benchmark entry, each measured against its baseline in the same run,
 * printed as ratios. Compute units are deterministic, so one execution each is exact; timings are
 * medians of repeated runs, taken side by side with their baseline. `BENCH_SMOKE=1` runs each entry
 * once, short (bench-scale.ts); `BENCH_ONLY="<entry name>"` runs one entry, `BENCH_ONLY="<name>,<name>"`
 * those named.
 *
 * An entry that throws (or leaves a rejection unhandled) is named with its error; the others still
 * run and print, and the run exits 1, so neither CI nor a reader takes a partial table for a whole
 * one. In a smoke, so does an entry whose correctness figure (failed requests) misses its goal; in
 * the full run that figure is a measure like the others, printed as GOAL MISSED.
 */
import { performance } from "node:perf_hooks";
import { agentConfidentialTransfer } from "./agent-confidential-transfer";
import { agentTransferComputeUnits } from "./agent-transfer-compute-units";
import { apiThroughput } from "./api-throughput";
import { type BenchEntry, type BenchResult, formatResults, goalMet } from "./bench-entry";
import { BENCH_SMOKE } from "./bench-scale";
import { confidentialApiThroughput, rpcConfidentialApiThroughput } from "./confidential-api-throughput";
import { confidentialTransfer } from "./confidential-transfer";
import { indexerThroughput } from "./indexer-throughput";
import { mcpLocalPayLatency } from "./mcp-local-pay-latency";
import { mcpRemoteThroughput } from "./mcp-remote-throughput";
import { programComputeUnits } from "./program-compute-units";
import { rpcApiThroughput } from "./rpc-api-throughput";
import { rpcFaults } from "./rpc-faults";
import { rpcTransferLatency } from "./rpc-transfer-latency";
import { webhookDelivery } from "./webhook-delivery";

const entries: readonly BenchEntry[] = [
  programComputeUnits,
  agentTransferComputeUnits,
  confidentialTransfer,
  agentConfidentialTransfer,
  apiThroughput,
  confidentialApiThroughput,
  indexerThroughput,
  webhookDelivery,
  rpcTransferLatency,
  rpcApiThroughput,
  rpcConfidentialApiThroughput,
  rpcFaults,
  mcpLocalPayLatency,
  mcpRemoteThroughput,
];

const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());
const unknown = only?.filter((name) => !entries.some((e) => e.name === name)) ?? [];
if (unknown.length > 0) {
  console.error(
    `BENCH_ONLY names no entry "${unknown.join('", "')}"; the entries: ${entries.map((e) => e.name).join(", ")}`,
  );
  process.exit(2);
}
const selected = entries.filter((e) => only === undefined || only.includes(e.name));

let running = "(none)";
process.on("unhandledRejection", (reason) => {
  console.error(`bench entry "${running}" left a rejection unhandled:`, reason);
  process.exit(1);
});

const mode = BENCH_SMOKE ? "smoke (BENCH_SMOKE=1)" : "full run";
const results: BenchResult[] = [];
const failed: string[] = [];
const runStarted = performance.now();
for (const entry of selected) {
  running = entry.name;
  console.error(`bench ${mode}: ${entry.name} ...`);
  const started = performance.now();
  try {
    const measured = await entry.run();
    results.push(...measured);
    const wrong = measured.filter((r) => r.correctness === true && !goalMet(r));
    if (BENCH_SMOKE && wrong.length > 0) {
      throw new Error(
        `its code path went wrong: ${wrong.map((r) => `${r.name} ${r.value} ${r.unit}`).join("; ")}`,
      );
    }
    console.error(`bench ${mode}: ${entry.name} done in ${seconds(started)} s`);
  } catch (error) {
    failed.push(entry.name);
    console.error(`bench ${mode}: ${entry.name} FAILED after ${seconds(started)} s:`, error);
  }
}
running = "(none)";

console.log(formatResults(results, { smoke: BENCH_SMOKE }));
const count = `${selected.length} ${selected.length === 1 ? "entry" : "entries"}`;
console.log(`\n${count}, ${mode}, in ${seconds(runStarted)} s`);
if (failed.length > 0) {
  console.error(`bench entries FAILED (their errors are above): ${failed.join(", ")}`);
}
// Exit here rather than when the event loop drains: a failed entry may leave a handle open, and
// CI must get the verdict, not a hang.
process.exit(failed.length > 0 ? 1 : 0);

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}
