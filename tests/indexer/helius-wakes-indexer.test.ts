/**
 * Helius wired into the indexer as `run-indexer.ts` wires it: the receiver on the indexer's HTTP
 * server, its pushes through `withHeliusPushes` into the engine. The chain underneath never hints
 * (its `watch` is silenced) and the poll is an hour, so only a Helius delivery can start a pass:
 * an authenticated delivery gets the transaction indexed at once; one with a wrong `Authorization`
 * starts nothing.
 */
import { type IndexerChain, indexerChainOver, startIndexer, startIndexerServer } from "@cpay/indexer";
import { createHeliusReceiver, withHeliusPushes } from "@cpay/indexer/helius";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { landedTransaction } from "../support/chain-reads";
import { heliusRawPayload } from "../support/helius-payload";

const AUTH = "Bearer helius-wakes-indexer";

// The indexer here is the suite's own (a Helius receiver beside it), started on the world below.
const given = apiSuite({
  world: { indexer: false },
  accounts: ["alice", "bob"],
  funds: { alice: { public: usdg(10) } },
});
let indexer: ReturnType<typeof startIndexer>;
let server: Awaited<ReturnType<typeof startIndexerServer>>;
/** Transactions the receiver handed to the engine, all deliveries together. */
let pushed = 0;

beforeAll(async () => {
  const embedded = indexerChainOver(await given.world.openChain());
  const silent: IndexerChain = { ...embedded, watch: () => () => {} };
  const pushes = withHeliusPushes(silent);
  indexer = startIndexer({
    db: given.world.service.context.db,
    databaseUrl: given.world.service.context.config.databaseUrl,
    chain: pushes.chain,
    logger: pino({ level: "silent" }),
    pollMs: 3_600_000,
    leaseMs: 1000,
  });
  server = await startIndexerServer(indexer, {
    host: "127.0.0.1",
    port: 0,
    routers: [
      createHeliusReceiver({
        authHeader: AUTH,
        onTransactions: (txs) => {
          pushed += txs.length;
          return pushes.receive(txs);
        },
      }),
    ],
  });
  while (!(await indexer.status()).leader) await new Promise((resolve) => setTimeout(resolve, 20));
  // Whatever the leader's first pass found (the setup's transactions) is behind us.
  await indexer.catchUp();
});

afterAll(async () => {
  await server?.close();
  await indexer?.stop();
});

/** A confirmed owner transfer; its signature and landed record. */
async function confirmedTransfer() {
  const transfer = await given.alice.client.call("createTransfer", {
    body: { to: "@bob", amount: "1", confidential: false },
  });
  await given.world.slots(2);
  const record = await landedTransaction(given.world.chain, transfer.tx_signature ?? "");
  if (record === null) throw new Error("the transfer did not land");
  return record;
}

const checkpoint = async () => (await indexer.status()).checkpoint?.signature ?? null;

function deliver(authorization: string, body: unknown) {
  return fetch(`${server.url}/helius/webhook`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("Helius deliveries wake the indexer", () => {
  it("Given a wrong Authorization, When Helius's payload arrives, Then it is refused and no pass runs", async () => {
    const record = await confirmedTransfer();
    const before = await checkpoint();
    const pushedBefore = pushed;

    const response = await deliver("Bearer guessed", heliusRawPayload([record]));

    expect(response.status).toBe(401);
    // The receiver answers after it handed a delivery on: by the 401, nothing was, and nothing can be.
    expect(pushed).toBe(pushedBefore);
    expect(await checkpoint()).toBe(before);
    expect(before).not.toBe(record.signature);
  });

  it("Given the right Authorization, When Helius's payload arrives, Then the indexer indexes up to it at once", async () => {
    const record = await confirmedTransfer();

    const response = await deliver(AUTH, heliusRawPayload([record]));

    expect(response.status).toBe(200);
    // "At once": the poll is an hour away; the deadline is a safety net for a busy machine.
    const deadline = Date.now() + 30_000;
    while ((await checkpoint()) !== record.signature && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await checkpoint()).toBe(record.signature);
  });
});
