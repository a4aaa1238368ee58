/**
 * The local MCP server's `pay` -> `confirmed`, in slots, beside the same payment made through the
 * SDK's agent client directly, public and confidential, in one run over one world: the localnet as
 * its own process (400 ms slots), the service and the indexer in a child (transfer-latency-process.ts
 * `self-custody`) with the self-custody agent `@payer/host`. Its host's two ways to pay `@sink`
 * 0.01 USDG:
 * - MCP: `cpay-mcp` started as a host starts it (`npm run --silent mcp`, the agent's settings in
 *   its environment), the SDK's `Client` over stdio calling `pay`, then `get_transfer` until it
 *   says `confirmed`;
 * - SDK: `connectAgent` with the same settings in this process, `resolveRecipient` and the agent
 *   client's `transfer`, then `GET /v1/transfers/{id}` until `confirmed`.
 * Each way signs through the agent's PDA and submits through the relay. The runs alternate which
 * goes first; all public ones come before the confidential ones, since the program refuses an
 * agent's public spend on a UTC day it has spent confidentially. Goal: the local server's median
 * within 1 slot of the SDK's, each kind.
 */
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import {
  type AgentSettings,
  agentSettingsEnv,
  type ConnectedAgent,
  connectAgent,
  resolveRecipient,
} from "@cpay/sdk/agent-client";
import { idFromBytes } from "@cpay/sdk/api";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { answerOf } from "../mcp/support/mcp-results";
import { startLocalnetProcess } from "../support/localnet-process";
import { forkBenchChild, stopBenchChild } from "./bench-child";
import type { BenchEntry, BenchResult } from "./bench-entry";
import { benchScale } from "./bench-scale";
import { SLOT_MS, slots, untilConfirmed } from "./slot-latency";
import { median } from "./transfer-cost";
import type { HostSettings } from "./transfer-latency-process";

const REPO = resolve(import.meta.dirname, "../..");
const RUNS = benchScale("BENCH_LATENCY_RUNS", { full: 9, smoke: 1 });
const TO = "@sink";
const AMOUNT = { text: "0.01", units: 10_000n };

interface TransferState {
  readonly transfer: { readonly transfer_id: string; readonly status: string };
}

/** The two ways a host pays: each resolves with the milliseconds from the call to `confirmed`. */
type Door = (confidential: boolean) => Promise<number>;

function throughMcp(client: Client): Door {
  return async (confidential) => {
    const started = performance.now();
    const paid = answerOf<TransferState>(
      await client.callTool({
        name: "pay",
        arguments: {
          to: TO,
          amount: AMOUNT.text,
          confidential,
          idempotency_key: `bench-${randomBytes(8).toString("hex")}`,
        },
      }),
    );
    const transferId = paid.transfer.transfer_id;
    await untilConfirmed(
      transferId,
      paid.transfer.status,
      async () =>
        answerOf<TransferState>(
          await client.callTool({ name: "get_transfer", arguments: { transfer_id: transferId } }),
        ).transfer.status,
      started,
    );
    return performance.now() - started;
  };
}

function throughSdk(agent: ConnectedAgent): Door {
  return async (confidential) => {
    const started = performance.now();
    const transferId = new Uint8Array(randomBytes(16));
    const id = idFromBytes("tr", transferId);
    const recipient = await resolveRecipient(agent.chain, TO);
    const submitted = await agent.client.transfer({
      ...recipient,
      amount: AMOUNT.units,
      confidential,
      transferId,
    });
    const answered = (submitted.transfer as { status?: string } | null)?.status ?? "pending";
    const read = async () => (await agent.api.call("getTransfer", { params: { transfer_id: id } })).status;
    await untilConfirmed(id, answered, read, started);
    return performance.now() - started;
  };
}

/** Medians in slots of RUNS runs of each door, after one unmeasured run of each (warming both). */
async function measure(mcp: Door, sdk: Door, confidential: boolean) {
  await mcp(confidential);
  await sdk(confidential);
  const samples = { mcp: [] as number[], sdk: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    if (run % 2 === 0) {
      samples.mcp.push(await mcp(confidential));
      samples.sdk.push(await sdk(confidential));
    } else {
      samples.sdk.push(await sdk(confidential));
      samples.mcp.push(await mcp(confidential));
    }
  }
  return { mcp: slots(median(samples.mcp)), sdk: slots(median(samples.sdk)) };
}

export const mcpLocalPayLatency: BenchEntry = {
  name: "mcp local pay latency",
  async run(): Promise<BenchResult[]> {
    const localnet = await startLocalnetProcess({ slotMs: SLOT_MS });
    try {
      const { child, ready } = await forkBenchChild<{ url: string; host: HostSettings }>(
        "./transfer-latency-process.ts",
        ["self-custody"],
        localnet.manifestPath,
      );
      const settings: AgentSettings = {
        apiUrl: ready.url,
        ...ready.host,
        rpcUrl: localnet.rpcUrl(),
        wsUrl: localnet.wsUrl(),
      };
      const client = new Client({ name: "bench-host", version: "1" });
      let agent: ConnectedAgent | null = null;
      try {
        await client.connect(
          new StdioClientTransport({
            command: "npm",
            args: ["run", "--silent", "mcp"],
            cwd: REPO,
            env: { ...getDefaultEnvironment(), ...agentSettingsEnv(settings) },
            stderr: "inherit",
          }),
        );
        agent = await connectAgent(settings);
        const mcp = throughMcp(client);
        const sdk = throughSdk(agent);
        const results: BenchResult[] = [];
        for (const confidential of [false, true]) {
          const kind = confidential ? "confidential" : "public";
          const measured = await measure(mcp, sdk, confidential);
          results.push(
            {
              name: `local MCP pay (${kind}) -> confirmed, median of ${RUNS}`,
              unit: "slots",
              value: measured.mcp,
              baselineName: "SDK agent client transfer -> confirmed, median",
              baseline: measured.sdk,
            },
            {
              name: `local MCP pay (${kind}) -> confirmed, slots more than the SDK`,
              unit: "slots",
              value: Number((measured.mcp - measured.sdk).toFixed(2)),
              baselineName: "goal",
              baseline: 1,
              goal: 1,
            },
          );
        }
        return results;
      } finally {
        await client.close();
        await agent?.close();
        await stopBenchChild(child);
      }
    } finally {
      await localnet.remove();
    }
  },
};
