/**
 * A fault-injecting Solana RPC proxy for the suites: HTTP JSON-RPC and WebSocket PubSub on
 * ephemeral loopback ports in front of a node (the localnet process, or `startLocalnet`), with
 * faults switched on and off while it runs, to show what a real provider does to a client:
 *
 * - `dropSends`: a seeded fraction of `sendTransaction` calls is answered with the transaction's
 *   signature and never forwarded (a leader that never got it);
 * - `expireNextSends`: the next N transactions sent (and every later re-send of them) are answered
 *   with their signature and forwarded only once their blockhash is past its last valid block
 *   height (a transaction that waited too long in a queue: the node drops it); with
 *   `expireOnlyNaming`, only transactions whose message names that account count (e.g. the program
 *   id: the one transaction of a multi-transaction flow that moves the funds);
 * - `latencyMs` + `jitterMs`: every answer waits that long (jitter is seeded, so concurrent answers
 *   come back out of order); `methodLatencyMs` holds one method's answers back (e.g. `getSlot`);
 * - `fail429` / `fail5xx`: the next N requests are answered HTTP 429 / 503 (a burst);
 * - `lagMs`: a node behind the cluster: slot, block height, blockhash and status reads are answered
 *   as they were `lagMs` ago (statuses newer than that are unknown, a blockhash it has not seen yet
 *   is invalid), and a `minContextSlot` it has not reached is refused with -32016, as agave does;
 * - `down`: every HTTP request's socket is destroyed and new PubSub sockets are closed at once;
 * - `cutPubSub()`: closes every client PubSub socket now (the client must subscribe again).
 *
 * Own code on purpose: the faults are the point, and none of them needs more than Node's http and
 * the `ws` package the localnet already uses.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { getBase58Decoder } from "@solana/kit";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import { seeded } from "./seeded";

export interface FaultSettings {
  /** Fraction (0..1) of sendTransaction calls answered but not forwarded. */
  readonly dropSends: number;
  /** How many of the next transactions sent are held (every send of them) until their blockhash has expired. */
  readonly expireNextSends: number;
  /** When set, `expireNextSends` picks only transactions whose static account keys include it. */
  readonly expireOnlyNaming: string | null;
  readonly latencyMs: number;
  /** A seeded 0..jitterMs added to each answer's latency: answers overtake each other. */
  readonly jitterMs: number;
  /** Extra latency per method name. */
  readonly methodLatencyMs: Readonly<Record<string, number>>;
  /** How many of the next requests are answered HTTP 429. */
  readonly fail429: number;
  /** How many of the next requests are answered HTTP 503. */
  readonly fail5xx: number;
  /** Answers slot/height/blockhash/status reads as of this many ms ago (0: current). */
  readonly lagMs: number;
  /** Refuses everything (sockets destroyed). */
  readonly down: boolean;
}

export const NO_FAULTS: FaultSettings = {
  dropSends: 0,
  expireNextSends: 0,
  expireOnlyNaming: null,
  latencyMs: 0,
  jitterMs: 0,
  methodLatencyMs: {},
  fail429: 0,
  fail5xx: 0,
  lagMs: 0,
  down: false,
};

export interface FaultStats {
  /** Requests forwarded to the node, by method. */
  readonly forwarded: Record<string, number>;
  /** Signatures of sends answered but never forwarded. */
  readonly dropped: string[];
  /** Signatures of sends forwarded only after their blockhash expired. */
  readonly expired: string[];
  http429: number;
  http5xx: number;
  /** Answers given from the lagging view. */
  lagged: number;
  pubsubCuts: number;
}

export interface FaultProxy {
  readonly rpcUrl: string;
  readonly wsUrl: string;
  readonly stats: FaultStats;
  /** The faults now in force. */
  faults(): FaultSettings;
  /** Replaces the named faults (others keep their value). */
  set(faults: Partial<FaultSettings>): void;
  /** Back to no faults (sends held for expiry still go out when their blockhash has expired). */
  clear(): void;
  /** Closes every client PubSub socket now; returns how many were open. */
  cutPubSub(): number;
  close(): Promise<void>;
}

interface JsonRpcRequest {
  readonly jsonrpc: "2.0";
  readonly id: unknown;
  readonly method: string;
  readonly params?: unknown[];
}

interface Seen<T> {
  readonly at: number;
  readonly value: T;
}

/** Methods whose answers a lagging node gives from its older view. */
const LAGGED = new Set([
  "getSlot",
  "getBlockHeight",
  "getLatestBlockhash",
  "isBlockhashValid",
  "getSignatureStatuses",
]);
const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;
const HELD_SEND_POLL_MS = 100;
/** How long answers are remembered for the lagging view. */
const HISTORY_MS = 60_000;

const base58 = getBase58Decoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads a compact-u16 at `offset`: [value, bytes used]. */
function compactU16(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0;
  for (let index = 0; index < 3; index++) {
    const byte = bytes[offset + index] ?? 0;
    value |= (byte & 0x7f) << (7 * index);
    if ((byte & 0x80) === 0) return [value, index + 1];
  }
  return [value, 3];
}

/** The first signature and the recent blockhash of a wire transaction (legacy or v0). */
export function wireSignatureAndBlockhash(wire: Uint8Array): {
  signature: string;
  blockhash: string;
  /** The message's static account keys (a program id is always one). */
  accounts: string[];
} {
  const [signatures, used] = compactU16(wire, 0);
  const signature = base58.decode(wire.subarray(used, used + 64));
  let offset = used + 64 * signatures;
  if (((wire[offset] ?? 0) & 0x80) !== 0) offset += 1; // versioned message prefix
  offset += 3; // header
  const [keys, keysUsed] = compactU16(wire, offset);
  offset += keysUsed;
  const accounts = Array.from({ length: keys }, (_, index) =>
    base58.decode(wire.subarray(offset + 32 * index, offset + 32 * (index + 1))),
  );
  offset += 32 * keys;
  return { signature, blockhash: base58.decode(wire.subarray(offset, offset + 32)), accounts };
}

function configOf(params: unknown[] | undefined): Record<string, unknown> | undefined {
  const last = params?.[params.length - 1];
  return last !== null && typeof last === "object" && !Array.isArray(last)
    ? (last as Record<string, unknown>)
    : undefined;
}

/** Starts the proxy in front of `target` (its HTTP and WebSocket URLs). */
export async function startFaultProxy(
  target: { readonly rpcUrl: string; readonly wsUrl: string },
  options: { readonly seed?: number } = {},
): Promise<FaultProxy> {
  // One generator per fault: which sends drop depends only on the seed and the number of sends.
  const dropRandom = seeded(options.seed ?? 1);
  const jitterRandom = seeded((options.seed ?? 1) + 1);
  let faults: FaultSettings = NO_FAULTS;
  const stats: FaultStats = {
    forwarded: {},
    dropped: [],
    expired: [],
    http429: 0,
    http5xx: 0,
    lagged: 0,
    pubsubCuts: 0,
  };
  // What passed through, for the lagging view: slots seen, blockhashes handed out.
  const slots: Seen<number>[] = [];
  // Each with the slot of the answer that handed it out: a lagging node knows it from that slot on.
  const blockhashes: Seen<{
    answer: unknown;
    slot: number;
    blockhash: string;
    lastValidBlockHeight: number;
  }>[] = [];
  let closed = false;
  const held = new Set<Promise<void>>();

  const remember = <T>(list: Seen<T>[], value: T) => {
    const now = Date.now();
    list.push({ at: now, value });
    while (list.length > 0 && (list[0] as Seen<T>).at < now - HISTORY_MS) list.shift();
  };
  /** The newest entry at least `lagMs` old, or the oldest known. */
  const asOf = <T>(list: Seen<T>[], lagMs: number): T | undefined => {
    const cutoff = Date.now() - lagMs;
    let found: Seen<T> | undefined = list[0];
    for (const entry of list) if (entry.at <= cutoff) found = entry;
    return found?.value;
  };

  async function upstream(body: JsonRpcRequest): Promise<{ result?: unknown; error?: unknown }> {
    stats.forwarded[body.method] = (stats.forwarded[body.method] ?? 0) + 1;
    const response = await fetch(target.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { result?: unknown; error?: unknown };
    observe(body.method, answer.result);
    return answer;
  }

  function observe(method: string, result: unknown): void {
    if (result === null || result === undefined) return;
    if (method === "getSlot" && typeof result === "number") remember(slots, result);
    const context = (result as { context?: { slot?: number } }).context;
    if (typeof context?.slot === "number") remember(slots, context.slot);
    if (method === "getLatestBlockhash") {
      const value = (result as { value: { blockhash: string; lastValidBlockHeight: number } }).value;
      remember(blockhashes, { answer: result, slot: context?.slot ?? 0, ...value });
    }
  }

  async function currentBlockHeight(): Promise<number> {
    const answer = await upstream({ jsonrpc: "2.0", id: 0, method: "getBlockHeight" });
    return Number(answer.result);
  }

  /** Forwards `body` once its blockhash is past its last valid block height (the node drops it). */
  function forwardAfterExpiry(body: JsonRpcRequest, blockhash: string): void {
    const known = blockhashes.find((entry) => entry.value.blockhash === blockhash);
    const task = (async () => {
      if (known !== undefined) {
        while (!closed && (await currentBlockHeight()) <= known.value.lastValidBlockHeight) {
          await sleep(HELD_SEND_POLL_MS);
        }
      }
      if (!closed) await upstream(body).catch(() => undefined);
    })().catch(() => undefined);
    held.add(task);
    void task.finally(() => held.delete(task));
  }

  /** The answer to `body` from a node `lagMs` behind (see the module doc). */
  async function laggedAnswer(body: JsonRpcRequest, lagMs: number): Promise<unknown> {
    stats.lagged += 1;
    const now = await upstream({ jsonrpc: "2.0", id: 0, method: "getSlot" });
    const slot = asOf(slots, lagMs) ?? Number(now.result);
    const minContextSlot = configOf(body.params)?.minContextSlot;
    if (typeof minContextSlot === "number" && minContextSlot > slot) {
      return {
        jsonrpc: "2.0",
        id: body.id,
        error: {
          code: MIN_CONTEXT_SLOT_NOT_REACHED,
          message: "Minimum context slot has not been reached",
          data: { contextSlot: slot },
        },
      };
    }
    const behind = Math.max(0, Number(now.result) - slot);
    const ok = (result: unknown) => ({ jsonrpc: "2.0", id: body.id, result });
    switch (body.method) {
      case "getSlot":
        return ok(slot);
      case "getBlockHeight": {
        const answer = await upstream(body);
        return ok(Math.max(0, Number(answer.result) - behind));
      }
      case "getLatestBlockhash": {
        // Asked upstream all the same, so the lagging view slides along with the cluster.
        const current = await upstream(body);
        const known = blockhashes.filter((entry) => entry.value.slot <= slot);
        const old = known[known.length - 1]?.value;
        return old === undefined ? { jsonrpc: "2.0", id: body.id, ...current } : ok(old.answer);
      }
      case "isBlockhashValid": {
        const hash = body.params?.[0];
        const seen = blockhashes.some((entry) => entry.value.slot <= slot && entry.value.blockhash === hash);
        if (!seen) return ok({ context: { slot }, value: false });
        const answer = (await upstream(body)) as { result?: { value: boolean } };
        return ok({ context: { slot }, value: answer.result?.value ?? false });
      }
      default: {
        // getSignatureStatuses: what landed after the lagging view's slot is unknown to it.
        const answer = (await upstream(body)) as {
          result?: { value: ({ slot: number } | null)[] };
          error?: unknown;
        };
        if (answer.result === undefined) return { jsonrpc: "2.0", id: body.id, error: answer.error };
        return ok({
          context: { slot },
          value: answer.result.value.map((status) => (status !== null && status.slot > slot ? null : status)),
        });
      }
    }
  }

  async function answer(body: JsonRpcRequest): Promise<unknown> {
    if (body.method === "sendTransaction") {
      const wire = Buffer.from(String(body.params?.[0] ?? ""), "base64");
      const { signature, blockhash, accounts } = wireSignatureAndBlockhash(wire);
      const chosen = stats.expired.includes(signature);
      const eligible = faults.expireOnlyNaming === null || accounts.includes(faults.expireOnlyNaming);
      if (chosen || (faults.expireNextSends > 0 && eligible)) {
        if (!chosen) {
          faults = { ...faults, expireNextSends: faults.expireNextSends - 1 };
          stats.expired.push(signature);
        }
        forwardAfterExpiry(body, blockhash);
        return { jsonrpc: "2.0", id: body.id, result: signature };
      }
      if (faults.dropSends > 0 && dropRandom() < faults.dropSends) {
        stats.dropped.push(signature);
        return { jsonrpc: "2.0", id: body.id, result: signature };
      }
    }
    if (faults.lagMs > 0 && LAGGED.has(body.method)) return laggedAnswer(body, faults.lagMs);
    return { jsonrpc: "2.0", id: body.id, ...(await upstream(body)) };
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (faults.down) {
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      void (async () => {
        if (faults.fail429 > 0) {
          faults = { ...faults, fail429: faults.fail429 - 1 };
          stats.http429 += 1;
          response.writeHead(429, { "content-type": "text/plain" }).end("Too Many Requests");
          return;
        }
        if (faults.fail5xx > 0) {
          faults = { ...faults, fail5xx: faults.fail5xx - 1 };
          stats.http5xx += 1;
          response.writeHead(503, { "content-type": "text/plain" }).end("Service Unavailable");
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as JsonRpcRequest;
        const delay =
          faults.latencyMs + faults.jitterMs * jitterRandom() + (faults.methodLatencyMs[body.method] ?? 0);
        const [answered] = await Promise.all([answer(body), sleep(delay)]);
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answered));
      })().catch((error: unknown) => {
        // The node itself failed (stopped, restarted): the proxy answers as a gateway would.
        if (!response.headersSent) response.writeHead(502).end(String(error));
      });
    });
  });

  // PubSub: each client socket gets its own socket to the node; messages pass through unchanged.
  const sockets = new Set<WebSocket>();
  const wsServer = createServer();
  const pubsub = new WebSocketServer({ server: wsServer });
  pubsub.on("connection", (client) => {
    if (faults.down) {
      client.terminate();
      return;
    }
    sockets.add(client);
    const node = new WebSocket(target.wsUrl);
    // Text frames stay text (ws hands every frame over as a Buffer): the node parses text only.
    const pending: { message: RawData; binary: boolean }[] = [];
    node.on("open", () => {
      for (const { message, binary } of pending.splice(0)) node.send(message, { binary });
    });
    node.on("message", (message, isBinary) => {
      if (client.readyState === WebSocket.OPEN) client.send(message, { binary: isBinary });
    });
    client.on("message", (message, binary) => {
      if (node.readyState === WebSocket.OPEN) node.send(message, { binary });
      else pending.push({ message, binary });
    });
    const drop = () => {
      sockets.delete(client);
      client.terminate();
      node.terminate();
    };
    client.on("close", drop).on("error", drop);
    node.on("close", drop).on("error", drop);
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => wsServer.listen(0, "127.0.0.1", resolve));
  const httpPort = (server.address() as { port: number }).port;
  const wsPort = (wsServer.address() as { port: number }).port;

  return {
    rpcUrl: `http://127.0.0.1:${httpPort}`,
    wsUrl: `ws://127.0.0.1:${wsPort}`,
    stats,
    faults: () => faults,
    set(next) {
      faults = { ...faults, ...next };
      if (faults.down) for (const socket of sockets) socket.terminate();
    },
    clear() {
      faults = NO_FAULTS;
    },
    cutPubSub() {
      const open = sockets.size;
      stats.pubsubCuts += 1;
      for (const socket of [...sockets]) socket.terminate();
      return open;
    },
    async close() {
      closed = true;
      for (const socket of [...sockets]) socket.terminate();
      await Promise.all([...held]);
      await new Promise<void>((resolve) => pubsub.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}
