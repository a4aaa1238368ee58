/**
 * The RPC port when the network fails: every transport failure (nothing listening, HTTP 5xx, no
 * answer in time, a node that went away) is ChainUnavailable, and other answers are not; a PubSub
 * server that goes away and comes back gets its subscriptions again; a subscription the node
 * refuses outright is reported to the listener's onError once, and not retried.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createEmbeddedCluster, type EmbeddedCluster } from "@cpay/localnet/cluster";
import { type Localnet, startLocalnet, startPubSubServer } from "@cpay/localnet/rpc";
import { ChainUnavailable, connectRpcChain, RpcResponseError, SubmissionRejected } from "@cpay/sdk/chain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { closedPort } from "../support/closed-port";
import { eventually } from "../support/eventually";

let cluster: EmbeddedCluster;
let localnet: Localnet;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An HTTP server on a free loopback port answering every request with `answer`. */
async function startHttp(answer: (respond: (status: number, body: string) => void) => void) {
  const server: Server = createHttpServer((_request, response) =>
    answer((status, body) => response.writeHead(status, { "content-type": "application/json" }).end(body)),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function options(rpcUrl: string, wsUrl = localnet.wsUrl) {
  return { rpcUrl, wsUrl, programId: cluster.programId, usdgMint: cluster.usdgMint };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );
}

beforeAll(async () => {
  cluster = await createEmbeddedCluster({ slotMs: 50 });
  localnet = await startLocalnet({ cluster, rpcPort: 0, wsPort: 0 });
});

afterAll(async () => {
  await localnet?.close();
  cluster?.stop();
});

describe("rpc chain: ChainUnavailable", () => {
  it("Given nothing listening, When connecting, Then it is ChainUnavailable and the message does not carry the URL's key", async () => {
    const error = await failure(
      connectRpcChain(options(`http://127.0.0.1:${await closedPort()}/?api-key=s3cret`)),
    );

    expect(error).toBeInstanceOf(ChainUnavailable);
    expect((error as Error).message).toMatch(/unreachable/);
    expect((error as Error).message).not.toContain("s3cret");
  });

  it("Given an endpoint answering HTTP 503 (and one answering 400), When connecting, Then only the 503 is ChainUnavailable", async () => {
    const down = await startHttp((respond) => respond(503, "{}"));
    const refusing = await startHttp((respond) => respond(400, "{}"));
    try {
      // A 503 is asked again within the retry budget first (rpc-retry.ts): a short one here.
      const unavailable = await failure(connectRpcChain({ ...options(down.url), retryBudgetMs: 200 }));
      expect(unavailable).toBeInstanceOf(ChainUnavailable);
      expect((unavailable as Error).message).toContain("HTTP 503");
      expect(await failure(connectRpcChain(options(refusing.url)))).not.toBeInstanceOf(ChainUnavailable);
    } finally {
      await down.close();
      await refusing.close();
    }
  });

  it("Given an endpoint that never answers, When connecting with a short timeout, Then it is ChainUnavailable", async () => {
    const silent = await startHttp(() => {});
    try {
      const started = Date.now();
      const error = await failure(connectRpcChain({ ...options(silent.url), timeoutMs: 200 }));

      expect(error).toBeInstanceOf(ChainUnavailable);
      expect((error as Error).message).toMatch(/in time/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await silent.close();
    }
  });

  it("Given a connected port whose node goes away, When read and sent to, Then both are ChainUnavailable, not a refusal", async () => {
    const own = await startLocalnet({ cluster, rpcPort: 0, wsPort: 0 });
    const chain = await connectRpcChain(options(own.rpcUrl, own.wsUrl));
    expect(await chain.getSlot()).toBeGreaterThan(0n);
    await own.close();

    expect(await failure(chain.getSlot())).toBeInstanceOf(ChainUnavailable);
    const sent = await failure(chain.sendTransaction(Uint8Array.of(1, 2, 3), { preflight: true }));
    expect(sent).toBeInstanceOf(ChainUnavailable);
    expect(sent).not.toBeInstanceOf(SubmissionRejected);
    await chain.close();
  });

  it("Given a node answering a JSON-RPC error, When read, Then it is an RpcResponseError with the node's code, not ChainUnavailable", async () => {
    const node = await startHttp((respond) =>
      respond(
        200,
        JSON.stringify({ jsonrpc: "2.0", id: 0, error: { code: -32005, message: "Node is unhealthy" } }),
      ),
    );
    try {
      const unhealthy = await failure(connectRpcChain(options(node.url)));
      expect(unhealthy).toBeInstanceOf(RpcResponseError);
      expect(unhealthy).toMatchObject({ code: -32005, message: "Node is unhealthy" });
    } finally {
      await node.close();
    }
  });
});

describe("rpc chain: subscriptions", () => {
  it("Given a slot listener whose PubSub server goes away and comes back, When slots go on, Then it is re-subscribed and hears them", async () => {
    let pubsub = await startPubSubServer({ cluster, host: "127.0.0.1", port: 0 });
    const port = pubsub.port;
    const warnings: unknown[] = [];
    const chain = await connectRpcChain({
      ...options(localnet.rpcUrl, pubsub.url),
      onWarning: (error) => warnings.push(error),
    });
    const heard: bigint[] = [];
    const failures: unknown[] = [];
    try {
      chain.onSlot(
        (slot) => heard.push(slot),
        (error) => failures.push(error),
      );
      await eventually(
        () => heard.length,
        (count) => count > 0,
      );

      await pubsub.close();
      await eventually(
        () => warnings.length,
        (count) => count > 0,
      );
      pubsub = await startPubSubServer({ cluster, host: "127.0.0.1", port });
      const before = cluster.getSlot();
      await eventually(
        () => heard.at(-1) ?? 0n,
        (last) => last > before,
      );

      expect(failures).toEqual([]); // a dropped socket is not a failure for good
    } finally {
      await chain.close();
      await pubsub.close();
    }
  });

  it("Given a PubSub server that answers every subscribe with a JSON-RPC error, When listened to, Then onError hears it once and nothing is retried", async () => {
    const refusing = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => refusing.once("listening", () => resolve()));
    let requests = 0;
    refusing.on("connection", (socket) =>
      socket.on("message", (raw) => {
        requests += 1;
        const { id } = JSON.parse(String(raw)) as { id: unknown };
        socket.send(
          JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } }),
        );
      }),
    );
    const { port } = refusing.address() as { port: number };
    const warnings: unknown[] = [];
    const chain = await connectRpcChain({
      ...options(localnet.rpcUrl, `ws://127.0.0.1:${port}`),
      onWarning: (error) => warnings.push(error),
    });
    const failures: unknown[] = [];
    try {
      chain.onLogs(
        cluster.programId,
        "confirmed",
        () => {},
        (error) => failures.push(error),
      );
      await eventually(
        () => failures.length,
        (count) => count > 0,
      );
      await sleep(800); // longer than the first retry pauses

      expect(failures).toHaveLength(1);
      expect(requests).toBe(1);
      expect(warnings).toEqual([]);
    } finally {
      await chain.close();
      for (const client of refusing.clients) client.terminate();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});
