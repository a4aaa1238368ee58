/**
 * `npm run bench`: every benchmark entry, each measured against its baseline in the same run,
 * printed as ratios. Compute units are deterministic, so one execution each is exact; timings are
 * medians of repeated runs, taken side by side with their baseline.
 */
import { agentConfidentialTransfer } from "./agent-confidential-transfer";
import { agentTransferComputeUnits } from "./agent-transfer-compute-units";
import { apiThroughput } from "./api-throughput";
import { type BenchResult, formatResults } from "./bench-entry";
import { confidentialApiThroughput, rpcConfidentialApiThroughput } from "./confidential-api-throughput";
import { confidentialTransfer } from "./confidential-transfer";
import { indexerThroughput } from "./indexer-throughput";
import { programComputeUnits } from "./program-compute-units";
import { rpcApiThroughput } from "./rpc-api-throughput";
import { rpcFaults } from "./rpc-faults";
import { rpcTransferLatency } from "./rpc-transfer-latency";
import { webhookDelivery } from "./webhook-delivery";

const entries = [
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
];

const only = process.env.BENCH_ONLY;
const results: BenchResult[] = [];
for (const entry of entries.filter((e) => only === undefined || e.name === only)) {
  results.push(...(await entry.run()));
}
console.log(formatResults(results));
