/**
 * The Helius webhook receiver over HTTP, fed with real agent-policy transactions: an embedded cluster
 * lands config_initialize, two handle_registers and a refused one (NotRegistrar, it lands with
 * `err`), and their records are rendered as Helius raw entries (support/helius-payload).
 *
 * A delivery is handed over only when it is Helius' (exact `Authorization`) and wholly well-formed;
 * Helius is answered 200 once the indexer took it, 500 (no details) when it failed, so Helius retries.
 */
import type { AddressInfo } from "node:net";
import type { ChainTransaction, IndexerChain } from "@cpay/indexer";
import { createHeliusReceiver, withHeliusPushes } from "@cpay/indexer/helius";
import { createEmbeddedCluster, type EmbeddedCluster, type TransactionRecord } from "@cpay/localnet/cluster";
import { buildConfigInitializeInstruction, buildHandleRegisterInstruction } from "@cpay/sdk";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sendToCluster } from "../support/cluster-send";
import { heliusRawPayload } from "../support/helius-payload";
import { programTestSigners, testSigner } from "../support/test-keys";

const AUTH = "Bearer hx-0f8e2a61c4d94b7a9e35d1c0b6a7f248";
const MIB = 1024 * 1024;

/** What the indexer must get for a landed transaction. */
function chainTransactionOf(record: TransactionRecord): ChainTransaction {
  return {
    signature: record.signature,
    slot: record.slot,
    blockTime: record.blockTime,
    err: record.err,
    logs: record.logs,
  };
}

/** Lands the program transactions the deliveries are made of; returns their records, in order. */
async function landProgramTransactions(cluster: EmbeddedCluster): Promise<TransactionRecord[]> {
  const { feePayer, registrar, stranger, admin } = await programTestSigners(cluster);
  cluster.requestAirdrop(feePayer.address, 100_000_000_000n);
  const register = async (registrarSigner: typeof registrar, handle: string) =>
    buildHandleRegisterInstruction({
      registrar: registrarSigner,
      payer: feePayer,
      handle,
      kind: "personal",
      wallet: (await testSigner(`wallet ${handle}`)).address,
    });
  const outcomes = [
    await sendToCluster(cluster, {
      payer: feePayer,
      instructions: [await buildConfigInitializeInstruction({ admin, registrar: registrar.address })],
    }),
    await sendToCluster(cluster, { payer: feePayer, instructions: [await register(registrar, "alice")] }),
    await sendToCluster(cluster, { payer: feePayer, instructions: [await register(registrar, "bob")] }),
    await sendToCluster(cluster, { payer: feePayer, instructions: [await register(stranger, "mallory")] }),
  ];
  return outcomes.map((outcome) => {
    const record = outcome.signature === null ? null : cluster.getTransaction(outcome.signature);
    if (record === null) throw new Error(`not landed: ${JSON.stringify(outcome.err)}`);
    return record;
  });
}

describe("Helius webhook receiver", () => {
  let cluster: EmbeddedCluster;
  let records: TransactionRecord[];
  let payload: Record<string, unknown>[];
  let url: string;
  let close: () => Promise<void>;
  const delivered: ChainTransaction[][] = [];
  const reported: unknown[] = [];
  let failure: Error | null = null;

  beforeAll(async () => {
    cluster = await createEmbeddedCluster({ slotMs: 50 });
    records = await landProgramTransactions(cluster);
    payload = heliusRawPayload(records);
    const app = express();
    app.use(
      createHeliusReceiver({
        authHeader: AUTH,
        onTransactions: async (transactions) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (failure !== null) throw failure;
          delivered.push(transactions);
        },
        onError: (error) => reported.push(error),
      }),
    );
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/helius/webhook`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });

  afterAll(async () => {
    await close?.();
    cluster?.stop();
  });

  afterEach(() => {
    delivered.length = 0;
    reported.length = 0;
    failure = null;
  });

  const post = async (body: string | unknown, authorization: string | null = AUTH) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (authorization !== null) headers.authorization = authorization;
    const response = await fetch(url, {
      method: "POST",
      headers,
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };

  it("Given real program transactions as Helius raw entries, When Helius posts them with the authHeader, Then the indexer gets them as the cluster recorded them and Helius gets 200", async () => {
    expect(records.map((record) => record.err === null)).toEqual([true, true, true, false]);
    expect(new Set(records.map((record) => record.slot)).size).toBe(records.length);

    const answer = await post(payload);

    expect(answer).toEqual({ status: 200, text: JSON.stringify({ received: 4 }) });
    expect(delivered).toEqual([records.map(chainTransactionOf)]);
    expect(delivered[0]?.[3]?.err).toEqual({ InstructionError: [0, { Custom: expect.any(Number) }] });
    expect(delivered[0]?.[1]?.logs.some((line) => line.includes(cluster.programId))).toBe(true);
  });

  it.each([
    ["a wrong secret", "Bearer hx-00000000000000000000000000000000"],
    ["the secret in another case", AUTH.toLowerCase()],
    // (Not a trailing space: HTTP strips whitespace around header values before anyone sees them.)
    ["the secret one character longer", `${AUTH}0`],
    ["the secret one character shorter", AUTH.slice(0, -1)],
    ["the secret without its scheme", AUTH.slice("Bearer ".length)],
    ["an empty header", ""],
    ["no header at all", null],
  ])(
    "Given %s in Authorization, When Helius' payload is posted, Then 401 and nothing is delivered",
    async (_case, authorization) => {
      const answer = await post(payload, authorization);

      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.text)).toEqual({
        error: { code: "unauthorized", message: "missing or wrong Authorization header" },
      });
      expect(answer.text).not.toContain(AUTH);
      expect(delivered).toEqual([]);
    },
  );

  it.each([
    ["an object, not an array", () => ({ transactions: payload }), "body is not a JSON array"],
    ["a bare number", () => 42, "body is not a JSON array"],
    [
      "an entry without signatures",
      () =>
        payload.map((entry, i) =>
          i === 1 ? withField(entry, ["transaction", "signatures"], undefined) : entry,
        ),
      "[1].transaction.signatures is missing",
    ],
    [
      "an entry with no signature in its list",
      () =>
        payload.map((entry, i) => (i === 0 ? withField(entry, ["transaction", "signatures"], []) : entry)),
      "[0].transaction.signatures is not a non-empty array of signatures",
    ],
    [
      "a signature that is not base58",
      () =>
        payload.map((entry, i) =>
          i === 3 ? withField(entry, ["transaction", "signatures"], ["0OIl"]) : entry,
        ),
      "[3].transaction.signatures[0] is not a base58 transaction signature",
    ],
    [
      "log messages that are not all strings",
      () =>
        payload.map((entry, i) => (i === 2 ? withField(entry, ["meta", "logMessages"], ["ok", 7]) : entry)),
      "[2].meta.logMessages is not an array of strings",
    ],
    [
      "log messages missing (RPC's null when logging is off)",
      () => payload.map((entry, i) => (i === 2 ? withField(entry, ["meta", "logMessages"], null) : entry)),
      "[2].meta.logMessages is not an array of strings",
    ],
    [
      "a slot that is not an integer",
      () => payload.map((entry, i) => (i === 0 ? withField(entry, ["slot"], "12") : entry)),
      "[0].slot is not a non-negative integer",
    ],
    [
      "no blockTime",
      () => payload.map((entry, i) => (i === 1 ? withField(entry, ["blockTime"], null) : entry)),
      "[1].blockTime is not a non-negative integer",
    ],
    [
      "an err that is a number",
      () => payload.map((entry, i) => (i === 0 ? withField(entry, ["meta", "err"], 3) : entry)),
      "[0].meta.err is not null, a string or an object",
    ],
    ["an entry that is null", () => [payload[0], null], "[1] is not an object"],
  ])(
    "Given %s, When it is posted, Then 400 names the field and nothing of the delivery is delivered",
    async (_case, body, message) => {
      const answer = await post(body());

      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toEqual({ error: { code: "invalid_payload", message } });
      expect(delivered).toEqual([]);
    },
  );

  it("Given a body that is not JSON, When it is posted, Then 400 invalid_json and nothing is delivered", async () => {
    const answer = await post("[{");

    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).error.code).toBe("invalid_json");
    expect(delivered).toEqual([]);
  });

  it("Given the default 5 MiB limit, When a delivery just under it and one just over it are posted, Then the first is taken and the second is 413", async () => {
    const entry = JSON.stringify(payload[0]);
    const under = `[${Array.from({ length: Math.floor((5 * MIB - 2) / (entry.length + 1)) }, () => entry).join(",")}]`;
    const over = `${under.slice(0, -1)},${Array.from({ length: 20 }, () => entry).join(",")}]`;
    expect(Buffer.byteLength(under)).toBeLessThanOrEqual(5 * MIB);
    expect(Buffer.byteLength(over)).toBeGreaterThan(5 * MIB);

    const taken = await post(under);
    const refused = await post(over);

    expect(taken.status).toBe(200);
    expect(delivered.map((batch) => batch.length)).toEqual([JSON.parse(taken.text).received]);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text).error.code).toBe("payload_too_large");
    expect(delivered).toHaveLength(1);
  });

  it("Given the indexer fails on a delivery, When Helius posts it, Then 500 without the error's text, so Helius retries", async () => {
    failure = new Error("connect ECONNREFUSED postgres://indexer:s3cret@db:5432");

    const answer = await post(payload);

    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text)).toEqual({
      error: { code: "internal_error", message: "the delivery could not be processed; retry it" },
    });
    expect(answer.text).not.toMatch(/s3cret|postgres|ECONNREFUSED/);
    expect(reported).toEqual([failure]);
    expect(delivered).toEqual([]);
  });

  it("Given the receiver handles requests, When any of them is answered, Then nothing it writes to the console carries the authHeader", async () => {
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => {}),
    );
    try {
      failure = new Error("boom");
      await post(payload);
      failure = null;
      await post(payload);
      await post(payload, `${AUTH}x`);
      await post("[{");
      const written = spies.flatMap((spy) => spy.mock.calls.map((call) => call.map(String).join(" ")));
      expect(written.filter((line) => line.includes(AUTH.slice("Bearer ".length)))).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("Given the receiver feeds withHeliusPushes, When Helius posts, Then watchers get each transaction as a hint and transaction() still asks the RPC chain", async () => {
    const rpcCalls: string[] = [];
    const rpc = {
      programId: cluster.programId,
      usdgMint: cluster.usdgMint,
      async transaction(signature: string) {
        rpcCalls.push(signature);
        return null;
      },
      watch: () => () => {},
    } as unknown as IndexerChain;
    const { chain, receive } = withHeliusPushes(rpc);
    const seen: (ChainTransaction | undefined)[] = [];
    chain.watch((transaction) => seen.push(transaction));
    const app = express().use(createHeliusReceiver({ authHeader: AUTH, onTransactions: receive }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const response = await fetch(`http://127.0.0.1:${port}/helius/webhook`, {
        method: "POST",
        headers: { authorization: AUTH, "content-type": "application/json" },
        body: JSON.stringify(payload),
      });

      expect(response.status).toBe(200);
      expect(seen).toEqual(records.map(chainTransactionOf));
      for (const record of records) expect(await chain.transaction(record.signature)).toBeNull();
      expect(rpcCalls).toEqual(records.map((record) => record.signature));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** A deep copy of `entry` with the value at `path` replaced (`undefined` removes it). */
function withField(entry: Record<string, unknown>, path: readonly string[], value: unknown): unknown {
  const copy = structuredClone(entry);
  let node = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}
