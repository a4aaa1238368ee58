import { awaitLanding, ChainUnavailable, connectRpcChain, signTransactionToWire } from "@cpay/sdk/chain";
import { generateKeyPairSigner, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { describe, expect, it } from "vitest";
import { proxiedLocalnetSuite } from "../support/proxied-localnet";
import { perSuite } from "../support/shared-set-up";

// 50 ms slots: a blockhash lives 150 slots (7.5 s), far longer than the lag and the retries it
// causes even on a loaded machine, so "invalid" can only come from the lagging view.
const given = proxiedLocalnetSuite(11);
/** The port under test, through the proxy (closed before the proxy stops). */
const port = perSuite(
  async () => ({
    chain: await connectRpcChain({
      rpcUrl: given.proxy.rpcUrl,
      wsUrl: given.proxy.wsUrl,
      programId: given.cluster.programId,
      usdgMint: given.cluster.usdgMint,
      onWarning: () => undefined,
    }),
  }),
  ({ chain }) => chain.close(),
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A signed 1-lamport self-transfer from a funded key (a new transaction each call). */
async function signedTransfer() {
  const payer = await generateKeyPairSigner();
  const airdrop = await port.chain.requestAirdrop(payer.address, 1_000_000_000n);
  const { blockhash } = await port.chain.getLatestBlockhash();
  expect(await awaitLanding(port.chain, airdrop, blockhash, { pollMs: 20 })).not.toBeNull();
  const latest = await port.chain.getLatestBlockhash();
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

describe("rpc port under a misbehaving RPC", () => {
  it("Given a 429 burst and a 5xx burst, When read and sent, Then each answers after backing off and the transaction lands once", async () => {
    const transfer = await signedTransfer();
    const before = given.proxy.stats.http429 + given.proxy.stats.http5xx;
    given.proxy.set({ fail429: 3, fail5xx: 2 });
    expect(await port.chain.getSlot()).toBeGreaterThan(0n);
    given.proxy.set({ fail5xx: 2 });
    expect(await port.chain.sendTransaction(transfer.wire, { preflight: true })).toBe(transfer.signature);
    expect(given.proxy.stats.http429 + given.proxy.stats.http5xx - before).toBe(7);
    const status = await awaitLanding(port.chain, transfer.signature, transfer.blockhash, { pollMs: 20 });
    expect(status?.err).toBeNull();
    // Sent again with the same bytes: the cluster already has it, nothing lands twice.
    await expect(port.chain.sendTransaction(transfer.wire, { preflight: true })).rejects.toMatchObject({
      kind: "already_processed",
    });
  });

  it("Given an endpoint busy for longer than the retry budget, When read, Then ChainUnavailable", async () => {
    const impatient = await connectRpcChain({
      rpcUrl: given.proxy.rpcUrl,
      wsUrl: given.proxy.wsUrl,
      programId: given.cluster.programId,
      usdgMint: given.cluster.usdgMint,
      retryBudgetMs: 300,
    });
    try {
      given.proxy.set({ fail5xx: 1_000_000 });
      await expect(impatient.getSlot()).rejects.toBeInstanceOf(ChainUnavailable);
    } finally {
      given.proxy.clear();
      await impatient.close();
    }
  });

  it("Given every send dropped for a while, When the landing wait re-sends the same bytes, Then it lands once the drops stop", async () => {
    const transfer = await signedTransfer();
    given.proxy.set({ dropSends: 1 });
    await port.chain.sendTransaction(transfer.wire);
    const landing = awaitLanding(port.chain, transfer.signature, transfer.blockhash, {
      pollMs: 20,
      wire: transfer.wire,
      resendMs: 100,
    });
    // Once the proxy has dropped a re-send of the same bytes too (not after a fixed time: a busy
    // machine re-sends later)
    const deadline = Date.now() + 30_000;
    while (given.proxy.stats.dropped.filter((signature) => signature === transfer.signature).length < 2) {
      if (Date.now() > deadline) throw new Error("the landing wait did not re-send within 30 s");
      await sleep(20);
    }
    given.proxy.clear();
    expect((await landing)?.err).toBeNull();
  });

  it("Given every send held until its blockhash expired, When waited for, Then the answer is null (it can never land) and it never lands", async () => {
    const transfer = await signedTransfer();
    given.proxy.set({ expireNextSends: 1 });
    await port.chain.sendTransaction(transfer.wire);
    const status = await awaitLanding(port.chain, transfer.signature, transfer.blockhash, {
      pollMs: 20,
      wire: transfer.wire,
      resendMs: 200,
    });
    expect(status).toBeNull();
    given.proxy.clear();
    await sleep(300);
    expect(await port.chain.getSignatureStatus(transfer.signature)).toBeNull();
  });

  it("Given a node that starts lagging after a blockhash was handed out and a transaction landed, When validity and status are read, Then the blockhash is valid and the status known", async () => {
    const transfer = await signedTransfer();
    await port.chain.sendTransaction(transfer.wire);
    expect(
      await awaitLanding(port.chain, transfer.signature, transfer.blockhash, { pollMs: 20 }),
    ).not.toBeNull();
    const fresh = await port.chain.getLatestBlockhash();
    const laggedBefore = given.proxy.stats.lagged;
    given.proxy.set({ lagMs: 500 });
    expect(await port.chain.isBlockhashValid(fresh.blockhash)).toBe(true);
    expect(await port.chain.getSignatureStatus(transfer.signature)).not.toBeNull();
    expect(given.proxy.stats.lagged).toBeGreaterThan(laggedBefore);
  });

  it("Given a port that has only read the finalized slot (an indexer's finality check), When a lagging node is asked for a status, Then a transaction landed at or before that slot is still found", async () => {
    const transfer = await signedTransfer();
    await port.chain.sendTransaction(transfer.wire);
    const landed = await awaitLanding(port.chain, transfer.signature, transfer.blockhash, { pollMs: 20 });
    if (landed === null) throw new Error("the transfer did not land");
    const checker = await connectRpcChain({
      rpcUrl: given.proxy.rpcUrl,
      wsUrl: given.proxy.wsUrl,
      programId: given.cluster.programId,
      usdgMint: given.cluster.usdgMint,
    });
    try {
      while ((await checker.getSlot("finalized")) < landed.slot) await sleep(20);
      given.proxy.set({ lagMs: 2_000 });
      expect(await checker.getSignatureStatus(transfer.signature)).not.toBeNull();
    } finally {
      given.proxy.clear();
      await checker.close();
    }
  });

  it("Given a slot listener, When the proxy cuts PubSub, Then it is subscribed again and hears slots", async () => {
    const heard: bigint[] = [];
    const stop = port.chain.onSlot((slot) => heard.push(slot));
    try {
      const waitHeard = async (count: number) => {
        const deadline = Date.now() + 30_000;
        while (heard.length < count) {
          if (Date.now() > deadline) throw new Error("no slot heard within 30 s");
          await sleep(20);
        }
      };
      await waitHeard(1);
      expect(given.proxy.cutPubSub()).toBeGreaterThan(0);
      const after = heard.length;
      await waitHeard(after + 3);
    } finally {
      stop();
    }
  });
});
