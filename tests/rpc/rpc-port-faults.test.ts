/**
 * The RPC chain port through the fault proxy (tests/support/fault-proxy.ts) in front of the
 * in-process localnet: a busy endpoint (429/5xx) is asked again within the retry budget, sends
 * included (the same bytes, so one landing), then ChainUnavailable; a dropped send lands through
 * the re-sends of the landing wait; a lagging node neither expires a live blockhash nor hides a
 * landed status; a cut PubSub socket is subscribed again.
 */
import { createEmbeddedCluster, type EmbeddedCluster } from "@cpay/localnet/cluster";
import { type Localnet, startLocalnet } from "@cpay/localnet/rpc";
import {
  awaitLanding,
  type ChainPort,
  ChainUnavailable,
  connectRpcChain,
  signTransactionToWire,
} from "@cpay/sdk/chain";
import { generateKeyPairSigner, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";

let cluster: EmbeddedCluster;
let localnet: Localnet;
let proxy: FaultProxy;
let chain: ChainPort;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A signed 1-lamport self-transfer from a funded key (a new transaction each call). */
async function signedTransfer() {
  const payer = await generateKeyPairSigner();
  const airdrop = await chain.requestAirdrop(payer.address, 1_000_000_000n);
  const { blockhash } = await chain.getLatestBlockhash();
  expect(await awaitLanding(chain, airdrop, blockhash, { pollMs: 20 })).not.toBeNull();
  const latest = await chain.getLatestBlockhash();
  const signed = await signTransactionToWire({
    feePayer: payer,
    instructions: [
      getTransferSolInstruction({ source: payer, destination: payer.address, amount: lamports(1n) }),
    ],
    blockhash: latest.blockhash,
    lastValidBlockHeight: latest.lastValidBlockHeight,
  });
  return { ...signed, blockhash: latest.blockhash };
}

beforeAll(async () => {
  // 50 ms slots: a blockhash lives 150 slots (7.5 s), far longer than the lag and the retries it
  // causes even on a loaded machine, so "invalid" can only come from the lagging view.
  cluster = await createEmbeddedCluster({ slotMs: 50 });
  localnet = await startLocalnet({ cluster, rpcPort: 0, wsPort: 0 });
  proxy = await startFaultProxy(localnet, { seed: 11 });
  chain = await connectRpcChain({
    rpcUrl: proxy.rpcUrl,
    wsUrl: proxy.wsUrl,
    programId: cluster.programId,
    usdgMint: cluster.usdgMint,
    onWarning: () => undefined,
  });
});

afterAll(async () => {
  await chain?.close();
  await proxy?.close();
  await localnet?.close();
  cluster?.stop();
});

beforeEach(() => proxy.clear());

describe("rpc port under a misbehaving RPC", () => {
  it("Given a 429 burst and a 5xx burst, When read and sent, Then each answers after backing off and the transaction lands once", async () => {
    const transfer = await signedTransfer();
    const before = proxy.stats.http429 + proxy.stats.http5xx;
    proxy.set({ fail429: 3, fail5xx: 2 });
    expect(await chain.getSlot()).toBeGreaterThan(0n);
    proxy.set({ fail5xx: 2 });
    expect(await chain.sendTransaction(transfer.wire, { preflight: true })).toBe(transfer.signature);
    expect(proxy.stats.http429 + proxy.stats.http5xx - before).toBe(7);
    const status = await awaitLanding(chain, transfer.signature, transfer.blockhash, { pollMs: 20 });
    expect(status?.err).toBeNull();
    // Sent again with the same bytes: the cluster already has it, nothing lands twice.
    await expect(chain.sendTransaction(transfer.wire, { preflight: true })).rejects.toMatchObject({
      kind: "already_processed",
    });
  });

  it("Given an endpoint busy for longer than the retry budget, When read, Then ChainUnavailable", async () => {
    const impatient = await connectRpcChain({
      rpcUrl: proxy.rpcUrl,
      wsUrl: proxy.wsUrl,
      programId: cluster.programId,
      usdgMint: cluster.usdgMint,
      retryBudgetMs: 300,
    });
    try {
      proxy.set({ fail5xx: 1_000_000 });
      await expect(impatient.getSlot()).rejects.toBeInstanceOf(ChainUnavailable);
    } finally {
      proxy.clear();
      await impatient.close();
    }
  });

  it("Given every send dropped for a while, When the landing wait re-sends the same bytes, Then it lands once the drops stop", async () => {
    const transfer = await signedTransfer();
    proxy.set({ dropSends: 1 });
    await chain.sendTransaction(transfer.wire);
    const landing = awaitLanding(chain, transfer.signature, transfer.blockhash, {
      pollMs: 20,
      wire: transfer.wire,
      resendMs: 100,
    });
    // Once the proxy has dropped a re-send of the same bytes too (not after a fixed time: a busy
    // machine re-sends later)
    const deadline = Date.now() + 30_000;
    while (proxy.stats.dropped.filter((signature) => signature === transfer.signature).length < 2) {
      if (Date.now() > deadline) throw new Error("the landing wait did not re-send within 30 s");
      await sleep(20);
    }
    proxy.clear();
    expect((await landing)?.err).toBeNull();
  });

  it("Given every send held until its blockhash expired, When waited for, Then the answer is null (it can never land) and it never lands", async () => {
    const transfer = await signedTransfer();
    proxy.set({ expireNextSends: 1 });
    await chain.sendTransaction(transfer.wire);
    const status = await awaitLanding(chain, transfer.signature, transfer.blockhash, {
      pollMs: 20,
      wire: transfer.wire,
      resendMs: 200,
    });
    expect(status).toBeNull();
    proxy.clear();
    await sleep(300);
    expect(await chain.getSignatureStatus(transfer.signature)).toBeNull();
  });

  it("Given a node that starts lagging after a blockhash was handed out and a transaction landed, When validity and status are read, Then the blockhash is valid and the status known", async () => {
    const transfer = await signedTransfer();
    await chain.sendTransaction(transfer.wire);
    expect(await awaitLanding(chain, transfer.signature, transfer.blockhash, { pollMs: 20 })).not.toBeNull();
    const fresh = await chain.getLatestBlockhash();
    const laggedBefore = proxy.stats.lagged;
    proxy.set({ lagMs: 500 });
    expect(await chain.isBlockhashValid(fresh.blockhash)).toBe(true);
    expect(await chain.getSignatureStatus(transfer.signature)).not.toBeNull();
    expect(proxy.stats.lagged).toBeGreaterThan(laggedBefore);
  });

  it("Given a port that has only read the finalized slot (an indexer's finality check), When a lagging node is asked for a status, Then a transaction landed at or before that slot is still found", async () => {
    const transfer = await signedTransfer();
    await chain.sendTransaction(transfer.wire);
    const landed = await awaitLanding(chain, transfer.signature, transfer.blockhash, { pollMs: 20 });
    if (landed === null) throw new Error("the transfer did not land");
    const checker = await connectRpcChain({
      rpcUrl: proxy.rpcUrl,
      wsUrl: proxy.wsUrl,
      programId: cluster.programId,
      usdgMint: cluster.usdgMint,
    });
    try {
      while ((await checker.getSlot("finalized")) < landed.slot) await sleep(20);
      proxy.set({ lagMs: 2_000 });
      expect(await checker.getSignatureStatus(transfer.signature)).not.toBeNull();
    } finally {
      proxy.clear();
      await checker.close();
    }
  });

  it("Given a slot listener, When the proxy cuts PubSub, Then it is subscribed again and hears slots", async () => {
    const heard: bigint[] = [];
    const stop = chain.onSlot((slot) => heard.push(slot));
    try {
      const waitHeard = async (count: number) => {
        const deadline = Date.now() + 30_000;
        while (heard.length < count) {
          if (Date.now() > deadline) throw new Error("no slot heard within 30 s");
          await sleep(20);
        }
      };
      await waitHeard(1);
      expect(proxy.cutPubSub()).toBeGreaterThan(0);
      const after = heard.length;
      await waitHeard(after + 3);
    } finally {
      stop();
    }
  });
});
