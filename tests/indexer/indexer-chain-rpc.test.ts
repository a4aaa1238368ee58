/**
 * The indexer's chain over the RPC chain port (`indexerChainOver(await connectRpcChain(...))`)
 * against the localnet: an embedded cluster with the real agent-policy program, served over
 * JSON-RPC + PubSub on free ports. Every answer of the indexer's chain is compared
 * with the cluster's own (its history, statuses and accounts), so a mapping mistake — order, paging
 * bounds, bigints, a chunk too big for the node, another program's account — shows as a difference.
 */
import { randomBytes } from "node:crypto";
import { type IndexerChain, indexerChainOver } from "@cpay/indexer";
import { createEmbeddedCluster, type EmbeddedCluster } from "@cpay/localnet/cluster";
import { type Localnet, startLocalnet, startPubSubServer } from "@cpay/localnet/rpc";
import { buildConfigInitializeInstruction, buildHandleRegisterInstruction } from "@cpay/sdk";
import { connectRpcChain } from "@cpay/sdk/chain";
import { generateKeyPairSigner, getBase58Decoder, type KeyPairSigner } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closedPort } from "../support/closed-port";
import { sendToCluster } from "../support/cluster-send";
import { startCountingProxy } from "../support/counting-proxy";
import { eventually } from "../support/eventually";

let cluster: EmbeddedCluster;
let localnet: Localnet;
let chain: IndexerChain;
let registrar: KeyPairSigner;
let stranger: KeyPairSigner;
const chainErrors: unknown[] = [];
/** The program transactions the suite landed, oldest first. */
const landed: { config: string; handle: string; refused: string } = { config: "", handle: "", refused: "" };
let handleCount = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function randomSignature(): string {
  return getBase58Decoder().decode(randomBytes(64));
}

function confirmed(signature: string): Promise<unknown> {
  return eventually(
    () => cluster.getSignatureStatus(signature)?.confirmationStatus,
    (status) => status === "confirmed" || status === "finalized",
  );
}

/** Lands `handle_register` of a fresh handle by `signer`: succeeds for the registrar, fails for others. */
async function registerHandle(signer: KeyPairSigner): Promise<{ signature: string; error: string | null }> {
  handleCount += 1;
  const outcome = await sendToCluster(cluster, {
    payer: signer,
    instructions: [
      await buildHandleRegisterInstruction({
        registrar: signer,
        payer: signer,
        handle: `rpc-chain-${handleCount}`,
        kind: "personal",
        wallet: stranger.address,
      }),
    ],
  });
  if (outcome.signature === null) throw new Error(`handle_register was not landed: ${outcome.rejected}`);
  return { signature: outcome.signature, error: outcome.error };
}

/** The cluster's own newest-first list of the program's confirmed transactions. */
function clusterProgramHistory() {
  return cluster
    .getSignaturesForAddress(cluster.programId)
    .filter((info) => info.confirmationStatus !== "processed")
    .map((info) => ({ signature: info.signature, slot: info.slot, err: info.err }));
}

beforeAll(async () => {
  cluster = await createEmbeddedCluster({ slotMs: 50 });
  localnet = await startLocalnet({ cluster, rpcPort: 0, wsPort: 0 });
  chain = await createRpcChain({ ...endpoints(), onError: (error) => chainErrors.push(error) });
  const admin = await cluster.keys.programUpgradeAuthority.toSigner();
  [registrar, stranger] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
  cluster.requestAirdrop(registrar.address, 10_000_000_000n);
  cluster.requestAirdrop(stranger.address, 10_000_000_000n);

  const config = await sendToCluster(cluster, {
    payer: admin,
    instructions: [await buildConfigInitializeInstruction({ admin, registrar: registrar.address })],
  });
  if (config.signature === null || config.err !== null) throw new Error("config_initialize failed");
  const handle = await registerHandle(registrar);
  const refused = await registerHandle(stranger);
  if (handle.error !== null || refused.error !== "NotRegistrar") {
    throw new Error(`unexpected outcomes: ${handle.error}, ${refused.error}`);
  }
  Object.assign(landed, { config: config.signature, handle: handle.signature, refused: refused.signature });
  await Promise.all(Object.values(landed).map(confirmed));
});

afterAll(async () => {
  await chain?.close();
  await localnet?.close();
  cluster?.stop();
});

describe("rpc chain: history", () => {
  it("Given confirmed program transactions, When the program's signatures are listed, Then they match the cluster's, newest first", async () => {
    const listed = await chain.signaturesForProgram({ limit: 1000 });

    expect(listed).toEqual(clusterProgramHistory());
    const ours = listed.map((entry) => entry.signature).filter((sig) => Object.values(landed).includes(sig));
    expect(ours).toEqual([landed.refused, landed.handle, landed.config]);
    const refused = listed.find((entry) => entry.signature === landed.refused);
    expect(refused?.err).toEqual({ InstructionError: [0, { Custom: expect.any(Number) }] });
    expect(typeof refused?.slot).toBe("bigint");
    expect(listed.find((entry) => entry.signature === landed.handle)?.err).toBeNull();
  });

  it("Given the program's history, When paged with limit, before and until, Then the bounds are exclusive and the order kept", async () => {
    const all = (await chain.signaturesForProgram({ limit: 1000 })).map((entry) => entry.signature);
    const page = async (bounds: { before?: string; until?: string; limit: number }) =>
      (await chain.signaturesForProgram(bounds)).map((entry) => entry.signature);

    expect(await page({ limit: 1 })).toEqual([landed.refused]);
    expect(await page({ before: landed.refused, limit: 1 })).toEqual([landed.handle]);
    expect(await page({ until: landed.config, limit: 1000 })).toEqual([landed.refused, landed.handle]);
    expect(await page({ before: landed.refused, until: landed.config, limit: 1000 })).toEqual([
      landed.handle,
    ]);
    expect(await page({ before: landed.handle, limit: 1000 })).toEqual(
      all.slice(all.indexOf(landed.handle) + 1),
    );
  });

  it("Given landed transactions, When each is fetched, Then slot, block time, error and logs are the cluster's", async () => {
    for (const signature of Object.values(landed)) {
      const record = cluster.getTransaction(signature, "confirmed");
      const fetched = await chain.transaction(signature);

      expect(fetched).toEqual({
        signature,
        slot: record?.slot,
        blockTime: record?.blockTime,
        err: record?.err,
        logs: record?.logs,
      });
      expect(fetched?.logs[0]).toBe(`Program ${cluster.programId} invoke [1]`);
    }
    const refused = await chain.transaction(landed.refused);
    expect(refused?.err).toEqual({ InstructionError: [0, { Custom: expect.any(Number) }] });
    // Plain JSON, as the indexer stores it: kit's bigints would make JSON.stringify throw.
    expect(JSON.parse(JSON.stringify(refused?.err))).toEqual(refused?.err);
    expect(await chain.transaction(randomSignature())).toBeNull();
  });

  it("Given known and unknown signatures, When their states are asked, Then unknown is null and known match the cluster", async () => {
    const unknown = randomSignature();
    const states = await chain.signatureStates([unknown, landed.config, landed.refused]);

    expect(states).toHaveLength(3);
    expect(states[0]).toBeNull();
    for (const [index, signature] of [landed.config, landed.refused].entries()) {
      const status = cluster.getSignatureStatus(signature);
      expect(states[index + 1]).toEqual({
        slot: status?.slot,
        err: status?.err,
        confirmationStatus: expect.stringMatching(/^(confirmed|finalized)$/),
      });
    }
  });

  it("Given more signatures than one RPC call takes (256), When their states are asked, Then they come back in order", async () => {
    const signatures = Array.from({ length: 300 }, randomSignature);
    signatures[280] = landed.handle;

    const states = await chain.signatureStates(signatures);

    expect(states).toHaveLength(300);
    expect(states[280]).toMatchObject({ slot: cluster.getSignatureStatus(landed.handle)?.slot, err: null });
    expect(states.filter((state) => state !== null)).toHaveLength(1);
  });

  it("Given a running clock, When the finalized slot is read twice, Then it agrees with the cluster and advances", async () => {
    const first = await chain.finalizedSlot();
    // Read after the chain's answer: the cluster can only have moved on, never back.
    expect(first).toBeLessThanOrEqual(cluster.getSlot("finalized"));
    expect(first).toBeLessThan(cluster.getSlot("confirmed"));

    const later = await eventually(
      () => chain.finalizedSlot(),
      (slot) => slot > first,
    );
    expect(later).toBeGreaterThan(first);
  });
});

describe("rpc chain: accounts", () => {
  it("Given a USDG account, the USDG mint, a wallet, a program account and a missing address, When owners are asked, Then only the token account has one", async () => {
    const owner = await generateKeyPairSigner();
    const { tokenAccount, signature } = await cluster.mintUsdgToOwner(owner.address, 1_000_000n);
    await confirmed(signature);
    const programAccount = cluster.getProgramAccounts(cluster.programId)[0]?.address;
    expect(programAccount).toBeDefined();

    expect(await chain.tokenAccountOwner(tokenAccount)).toBe(owner.address);
    // The mint is a Token-2022 account too, with other bytes where an account keeps its owner.
    expect(await chain.tokenAccountOwner(cluster.usdgMint)).toBeNull();
    expect(await chain.tokenAccountOwner(registrar.address)).toBeNull();
    expect(await chain.tokenAccountOwner(programAccount as string)).toBeNull();
    expect(await chain.tokenAccountOwner((await generateKeyPairSigner()).address)).toBeNull();
  });

  it("Given the program's accounts and others, When their data is asked, Then only the program's come back, byte for byte", async () => {
    const accounts = cluster.getProgramAccounts(cluster.programId);
    expect(accounts.length).toBeGreaterThanOrEqual(2); // the config and the registered handles

    for (const account of accounts) {
      expect(await chain.programAccountData(account.address)).toEqual(account.data);
    }
    expect(await chain.programAccountData(cluster.usdgMint)).toBeNull();
    expect(await chain.programAccountData(registrar.address)).toBeNull();
    expect(await chain.programAccountData((await generateKeyPairSigner()).address)).toBeNull();
  });
});

/**
 * Lands program transactions until the watcher counted by `calls` is notified beyond `before`: a
 * subscription opens (or re-opens after its backoff) asynchronously, and a transaction confirmed
 * before it did goes unnotified while the poll is a minute away.
 */
async function notifiedOfNewTransactions(calls: () => number, before = 0): Promise<void> {
  await eventually(
    async () => {
      await confirmed((await registerHandle(registrar)).signature);
      return calls();
    },
    (count) => count > before,
  );
}

describe("rpc chain: watch", () => {
  it("Given a watcher with a slow poll, When a program transaction confirms, Then the log subscription calls it, and not after unsubscribe", async () => {
    const quiet = await createRpcChain({
      ...endpoints(),
      pollMs: 60_000,
      onError: (error) => chainErrors.push(error),
    });
    try {
      let calls = 0;
      const unsubscribe = quiet.watch(() => {
        calls += 1;
      });
      // A second watcher on the same subscription: it shows when a notification was delivered.
      let witnessed = 0;
      quiet.watch(() => {
        witnessed += 1;
      });
      await notifiedOfNewTransactions(() => calls);

      unsubscribe();
      const seen = calls;
      const before = witnessed;
      await confirmed((await registerHandle(registrar)).signature);
      await eventually(
        () => witnessed,
        (count) => count > before,
      );
      expect(calls).toBe(seen);
    } finally {
      await quiet.close();
    }
  });

  it("Given a PubSub endpoint that refuses connections, When watched, Then the poll still calls and retries back off", async () => {
    const errorsAt: number[] = [];
    const offline = await createRpcChain({
      ...endpoints(),
      wsUrl: `ws://127.0.0.1:${await closedPort()}`,
      pollMs: 50,
      onError: () => errorsAt.push(performance.now()),
    });
    let calls = 0;
    offline.watch(() => {
      calls += 1;
    });
    await eventually(
      () => calls,
      (count) => count >= 5,
    );
    await eventually(
      () => errorsAt.length,
      (count) => count >= 3,
    );
    await offline.close();
    const afterClose = calls;

    // Attempts at 0, 250, 750 ms: each pause at least twice the one before (a fixed 250 ms retry
    // would not, and none is hundreds). Lower bounds only, which a busy machine only makes longer
    // (10 ms for a timer's rounding).
    const [first, second, third] = errorsAt as [number, number, number];
    expect(second - first).toBeGreaterThanOrEqual(250 - 10);
    expect(third - second).toBeGreaterThanOrEqual(500 - 10);
    await sleep(200);
    expect(calls).toBe(afterClose);
  });

  it("Given two polling watchers, When one unsubscribes and then the chain closes, Then each poll timer is cleared", async () => {
    // Only intervals are faked: the chain's poll timers are then countable and fired on demand,
    // while sockets and the retry pauses run for real (the socket is refused, so kit's own pinger
    // interval never starts).
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const polling = await createRpcChain({
        ...endpoints(),
        wsUrl: `ws://127.0.0.1:${await closedPort()}`,
        pollMs: 1_000,
        onError: () => {},
      });
      const calls = { first: 0, second: 0 };
      const unsubscribeFirst = polling.watch(() => {
        calls.first += 1;
      });
      polling.watch(() => {
        calls.second += 1;
      });
      expect(vi.getTimerCount()).toBe(2);
      vi.advanceTimersByTime(1_000);
      await sleep(0);
      expect(calls).toEqual({ first: 1, second: 1 });

      // A tick already fired but not yet delivered is dropped by the unsubscribe too.
      vi.advanceTimersByTime(1_000);
      unsubscribeFirst();
      expect(vi.getTimerCount()).toBe(1);
      await sleep(0);
      expect(calls).toEqual({ first: 1, second: 2 });
      vi.advanceTimersByTime(1_000);
      await sleep(0);
      expect(calls).toEqual({ first: 1, second: 3 });

      await polling.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("Given watchers that throw or reject, When polled, Then both failures go to onError and nothing escapes", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const errors: unknown[] = [];
    const throwing = await createRpcChain({
      ...endpoints(),
      wsUrl: `ws://127.0.0.1:${await closedPort()}`,
      pollMs: 1_000,
      onError: (error) => errors.push(error),
    });
    try {
      throwing.watch(() => {
        throw new Error("sync failure");
      });
      throwing.watch(async () => {
        throw new Error("async failure");
      });
      vi.advanceTimersByTime(1_000);
      await eventually(
        () => errors.length,
        (count) => count >= 2,
      );

      const messages = errors.map((error) => (error as Error).message);
      expect(messages).toContain("sync failure");
      expect(messages).toContain("async failure");
    } finally {
      await throwing.close();
      vi.useRealTimers();
    }
  });

  it("Given a watcher whose PubSub server goes away and comes back, When a program transaction confirms, Then it is re-subscribed and notified", async () => {
    let pubsub = await startPubSubServer({ cluster, host: "127.0.0.1", port: 0 });
    const port = pubsub.port;
    const errors: unknown[] = [];
    const flaky = await createRpcChain({
      ...endpoints(),
      wsUrl: pubsub.url,
      pollMs: 60_000,
      onError: (error) => errors.push(error),
    });
    try {
      let calls = 0;
      flaky.watch(() => {
        calls += 1;
      });
      await notifiedOfNewTransactions(() => calls);

      await pubsub.close();
      await eventually(
        () => errors.length,
        (count) => count > 0,
      );
      pubsub = await startPubSubServer({ cluster, host: "127.0.0.1", port });
      const before = calls;
      // Until the backoff re-subscribes, a transaction may go unnotified: send until one is seen.
      await notifiedOfNewTransactions(() => calls, before);
      expect(calls).toBeGreaterThan(before);
    } finally {
      await flaky.close();
      await pubsub.close();
    }
  });

  it("Given watchers, When the chain is closed, Then its WebSocket is released and nothing is called after", async () => {
    const proxy = await startCountingProxy(localnet.wsPort);
    try {
      const closing = await createRpcChain({
        ...endpoints(),
        wsUrl: `ws://127.0.0.1:${proxy.port}`,
        pollMs: 20,
        onError: (error) => chainErrors.push(error),
      });
      let calls = 0;
      closing.watch(() => {
        calls += 1;
      });
      closing.watch(() => {
        calls += 1;
      });
      await eventually(
        () => proxy.open,
        (open) => open > 0,
      );
      await eventually(
        () => calls,
        (count) => count > 0,
      );

      await closing.close();
      const afterClose = calls;
      await eventually(
        () => proxy.open,
        (open) => open === 0,
      );
      await sleep(100);

      expect(calls).toBe(afterClose);
      expect(proxy.accepted).toBe(1); // both watchers shared one socket
      expect(() => closing.watch(() => {})).toThrow(/closed/);
    } finally {
      await proxy.close();
    }
  });

  it("Given the suite's watchers and requests, Then the shared chain reported no errors", () => {
    expect(chainErrors).toEqual([]);
  });
});

/**
 * The indexer's chain over a new RPC port; `onError` hears both the port's warnings (dropped
 * subscriptions) and the indexer chain's own failures. Closing it closes the port too.
 */
async function createRpcChain(options: {
  readonly rpcUrl: string;
  readonly wsUrl: string;
  readonly programId: string;
  readonly usdgMint: string;
  readonly pollMs?: number;
  readonly onError: (error: unknown) => void;
}): Promise<IndexerChain> {
  const port = await connectRpcChain({ ...options, onWarning: options.onError });
  const indexerChain = indexerChainOver(port, {
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    onError: options.onError,
  });
  return {
    ...indexerChain,
    async close() {
      await indexerChain.close();
      await port.close();
    },
  };
}

function endpoints() {
  return {
    rpcUrl: localnet.rpcUrl,
    wsUrl: localnet.wsUrl,
    programId: cluster.programId,
    usdgMint: cluster.usdgMint,
  };
}
