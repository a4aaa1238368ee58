/**
 * withHeliusPushes over a fake RPC chain that counts its calls: pushed transactions wake `watch`
 * listeners; everything the indexer reads — the signature walk and the transactions themselves —
 * is still the RPC chain's.
 */
import type { ChainTransaction, IndexerChain } from "@cpay/indexer";
import { withHeliusPushes } from "@cpay/indexer/helius";
import { describe, expect, it } from "vitest";

function pushed(n: number): ChainTransaction {
  return {
    signature: `sig-${n}`,
    slot: 1000n + BigInt(n),
    blockTime: 1_780_000_000n + BigInt(n),
    err: n % 2 === 0 ? null : { InstructionError: [0, { Custom: 6001 }] },
    logs: [`Program log: push ${n}`],
  };
}

/** A chain whose every method is counted; `transaction` answers `fetched` or null. */
function fakeRpcChain(fetched: ChainTransaction | null = null) {
  const calls: string[] = [];
  const watchers = new Set<(transaction?: ChainTransaction) => void>();
  const chain: IndexerChain = {
    programId: "Program1111111111111111111111111111111111111",
    usdgMint: "Mint111111111111111111111111111111111111111",
    async signaturesForProgram(page) {
      calls.push(`signaturesForProgram ${page.limit}`);
      return [];
    },
    async transaction(signature) {
      calls.push(`transaction ${signature}`);
      return fetched;
    },
    async signatureStates(signatures) {
      calls.push(`signatureStates ${signatures.length}`);
      return signatures.map(() => null);
    },
    async finalizedSlot() {
      calls.push("finalizedSlot");
      return 7n;
    },
    async programAccountData(address) {
      calls.push(`programAccountData ${address}`);
      return null;
    },
    async tokenAccountOwner(tokenAccount) {
      calls.push(`tokenAccountOwner ${tokenAccount}`);
      return null;
    },
    watch(onActivity) {
      calls.push("watch");
      watchers.add(onActivity);
      return () => {
        calls.push("unwatch");
        watchers.delete(onActivity);
      };
    },
    async close() {
      calls.push("close");
    },
  };
  return { chain, calls, watchers };
}

describe("withHeliusPushes", () => {
  it("Given a watcher, When transactions are pushed, Then it gets each of them, in order, besides the RPC chain's own hints", () => {
    const rpc = fakeRpcChain();
    const { chain, receive } = withHeliusPushes(rpc.chain);
    const seen: (ChainTransaction | undefined)[] = [];
    chain.watch((transaction) => seen.push(transaction));

    receive([pushed(1), pushed(2)]);
    for (const watcher of rpc.watchers) watcher();
    receive([pushed(3)]);

    expect(seen).toEqual([pushed(1), pushed(2), undefined, pushed(3)]);
    expect(rpc.calls).toEqual(["watch"]);
  });

  it("Given pushed transactions, When the indexer asks for them, Then the RPC chain answers, never the push (a push is a hint; Helius signs nothing)", async () => {
    const fromRpc = pushed(99);
    const rpc = fakeRpcChain(fromRpc);
    const { chain, receive } = withHeliusPushes(rpc.chain);

    receive([{ ...pushed(1), logs: ["Program log: planted"] }]);

    expect(await chain.transaction("sig-1")).toBe(fromRpc);
    expect(rpc.calls).toEqual(["transaction sig-1"]);
  });

  it("Given pushes, When the indexer walks signatures, checks finality or reads accounts, Then the RPC chain answers: pushes never decide what is recorded", async () => {
    const rpc = fakeRpcChain();
    const { chain, receive } = withHeliusPushes(rpc.chain);
    receive([pushed(1)]);

    expect(await chain.signaturesForProgram({ limit: 1000 })).toEqual([]);
    expect(await chain.signatureStates(["sig-1"])).toEqual([null]);
    expect(await chain.finalizedSlot()).toBe(7n);
    expect(await chain.programAccountData("Hold1")).toBeNull();
    expect(await chain.tokenAccountOwner("Token1")).toBeNull();
    expect(chain.programId).toBe(rpc.chain.programId);
    expect(chain.usdgMint).toBe(rpc.chain.usdgMint);
    expect(rpc.calls).toEqual([
      "signaturesForProgram 1000",
      "signatureStates 1",
      "finalizedSlot",
      "programAccountData Hold1",
      "tokenAccountOwner Token1",
    ]);
  });

  it("Given a watcher unsubscribed, When transactions are pushed, Then it hears nothing and the RPC chain's subscription is closed too", () => {
    const rpc = fakeRpcChain();
    const { chain, receive } = withHeliusPushes(rpc.chain);
    const seen: (ChainTransaction | undefined)[] = [];
    const unwatch = chain.watch((transaction) => seen.push(transaction));

    unwatch();
    receive([pushed(1)]);

    expect(seen).toEqual([]);
    expect(rpc.calls).toEqual(["watch", "unwatch"]);
    expect(rpc.watchers.size).toBe(0);
  });

  it("Given a watcher that throws, When transactions are pushed, Then the other watchers still get them all and receive reports the failure", async () => {
    const rpc = fakeRpcChain();
    const { chain, receive } = withHeliusPushes(rpc.chain);
    const seen: string[] = [];
    chain.watch(() => {
      throw new Error("indexer busy");
    });
    chain.watch((transaction) => seen.push(transaction?.signature ?? "hint"));

    expect(() => receive([pushed(1), pushed(2)])).toThrow(AggregateError);
    expect(seen).toEqual(["sig-1", "sig-2"]);
  });

  it("Given the chain is closed, When transactions are pushed, Then the RPC chain was closed and no former watcher hears them", async () => {
    const rpc = fakeRpcChain();
    const { chain, receive } = withHeliusPushes(rpc.chain);
    const seen: string[] = [];
    chain.watch((transaction) => seen.push(transaction?.signature ?? "hint"));

    await chain.close();
    receive([pushed(1)]);

    expect(rpc.calls).toEqual(["watch", "close"]);
    expect(seen).toEqual([]);
  });
});
