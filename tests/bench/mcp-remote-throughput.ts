/**
 * Public transfers per second through the service's `/mcp` door (the `pay` tool) beside
 * `POST /v1/transfers`, in one world and run: the localnet as its own process (400 ms slots), the
 * service in a child connected to it (api-server-process.ts `api` with SENDERS senders, as
 * rpc-api-throughput.ts), SENDERS autocannon connections at once, one per sender's key, for
 * LOAD_SECONDS each. Both carry a fresh idempotency key per request (a UUID), as an
 * agent that may retry sends them, so both go through the same idempotency store: `/v1` in the
 * `Idempotency-Key` header, `/mcp` as `pay`'s `idempotency_key`. An `/mcp` request is what an
 * initialized client sends per call: one JSON-RPC `tools/call` POST (the door keeps no session).
 * A refused tool call answers 200 with `isError`, so its body is read. ROUNDS rounds, the order of
 * the doors swapped each round; rates over all rounds. Goal: `/mcp` at least 0.8x of `/v1`.
 */
import { randomUUID } from "node:crypto";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { startLocalnetProcess } from "../support/localnet-process";
import {
  forkBenchChild,
  type KeyedLoad,
  loadPerKey,
  PUBLIC_PAYMENT,
  publicTransferRequest,
  stopBenchChild,
} from "./bench-child";
import type { BenchEntry, BenchResult } from "./bench-entry";
import { benchScale } from "./bench-scale";
import { SLOT_MS } from "./slot-latency";

const LOAD_SECONDS = benchScale("BENCH_RPC_LOAD_SECONDS", { full: 15, smoke: 2 });
const ROUNDS = benchScale(null, { full: 2, smoke: 1 });
const SENDERS = 4;

type Door = (url: string, keys: readonly string[]) => Promise<KeyedLoad>;

/** SENDERS connections at once, one per key, each request remade by `each`. */
const load = (
  keys: readonly string[],
  input: Pick<Parameters<typeof loadPerKey>[0], "request" | "each" | "refused">,
) => loadPerKey({ keys, connections: SENDERS, seconds: LOAD_SECONDS, ...input });

const v1: Door = (url, keys) =>
  load(keys, {
    request: publicTransferRequest(url),
    each: (request) => ({ ...request, headers: { ...request.headers, "idempotency-key": randomUUID() } }),
  });

/** One `tools/call` of `pay`, as an initialized client posts it. */
const mcp: Door = (url, keys) =>
  load(keys, {
    request: (key) => ({
      url: `${url}/mcp`,
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
      },
    }),
    each: (request) => ({
      ...request,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "pay", arguments: { ...PUBLIC_PAYMENT, idempotency_key: randomUUID() } },
      }),
    }),
    refused: (body) => body.includes('"isError":true'),
  });

/** `loads` added up: their rate is the mean. */
function together(loads: readonly KeyedLoad[]): KeyedLoad {
  const sum = (pick: (l: KeyedLoad) => number) => loads.reduce((total, l) => total + pick(l), 0);
  return {
    rate: Number((sum((l) => l.rate) / loads.length).toFixed(1)),
    failed: sum((l) => l.failed),
    sent: sum((l) => l.sent),
  };
}

export const mcpRemoteThroughput: BenchEntry = {
  name: "mcp remote throughput",
  async run(): Promise<BenchResult[]> {
    const localnet = await startLocalnetProcess({ slotMs: SLOT_MS });
    try {
      const { child, ready } = await forkBenchChild<{ url: string; keys: string[] }>(
        "./api-server-process.ts",
        ["api", String(SENDERS)],
        localnet.manifestPath,
      );
      try {
        const measured = { v1: [] as KeyedLoad[], mcp: [] as KeyedLoad[] };
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 === 0 ? (["v1", "mcp"] as const) : (["mcp", "v1"] as const);
          for (const door of order) measured[door].push(await { v1, mcp }[door](ready.url, ready.keys));
        }
        const through = { v1: together(measured.v1), mcp: together(measured.mcp) };
        const label = `${SENDERS} at once from ${SENDERS} senders`;
        const failures = (door: "v1" | "mcp", name: string): BenchResult => ({
          name: `${name}, ${label}, ${ROUNDS} x ${LOAD_SECONDS} s: failed`,
          unit: "requests",
          value: through[door].failed,
          baselineName: "requests sent",
          baseline: through[door].sent,
          goal: 0,
          correctness: true,
        });
        return [
          {
            name: `/mcp pay (public) over RPC, ${label}`,
            unit: "transfers/s",
            value: through.mcp.rate,
            baselineName: "POST /v1/transfers, same world and senders",
            baseline: through.v1.rate,
            goal: 0.8,
            higherIsBetter: true,
          },
          failures("mcp", "/mcp pay"),
          failures("v1", "POST /v1/transfers with Idempotency-Key"),
        ];
      } finally {
        await stopBenchChild(child);
      }
    } finally {
      await localnet.remove();
    }
  },
};
