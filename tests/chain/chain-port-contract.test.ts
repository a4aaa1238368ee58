/**
 * The chain port's contract, run against both implementations over ONE embedded cluster: the
 * in-process port (`inProcessChain`) and the RPC port (`connectRpcChain`) talking to that cluster's
 * localnet on ephemeral ports. The cluster's clock is manual, so commitment only moves when a test
 * advances it. Each method is checked on real transactions against what the cluster itself holds,
 * per implementation; then the same questions are put to both and the answers must be equal, so a
 * normalisation slip on either side (a bigint, an order, a default commitment) fails here.
 */
import { randomBytes } from "node:crypto";
import { createEmbeddedCluster, type EmbeddedCluster, inProcessChain } from "@cpay/localnet/cluster";
import { type Localnet, startLocalnet } from "@cpay/localnet/rpc";
import { type ChainPort, connectRpcChain, SubmissionRejected, signTransactionToWire } from "@cpay/sdk/chain";
import { generateKeyPairSigner, getBase58Decoder, type KeyPairSigner, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually";

const SOL = 1_000_000_000n;
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";

let cluster: EmbeddedCluster;
let localnet: Localnet;
const ports: Record<"in-process" | "rpc", ChainPort> = {} as never;
const warnings: unknown[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomSignature = () => getBase58Decoder().decode(randomBytes(64));
const randomHash = () => getBase58Decoder().decode(randomBytes(32));

async function fundedSigner(chain: ChainPort, sol = 2n): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  await chain.requestAirdrop(signer.address, sol * SOL);
  return signer;
}

/** A System transfer signed the way every client signs (v0, latest blockhash of `chain`). */
async function transferWire(
  chain: ChainPort,
  from: KeyPairSigner,
  to: string,
  amount: bigint,
  blockhash?: string,
) {
  return signTransactionToWire({
    feePayer: from,
    blockhash: blockhash ?? (await chain.getLatestBlockhash()).blockhash,
    instructions: [
      getTransferSolInstruction({ source: from, destination: to as never, amount: lamports(amount) }),
    ],
  });
}

/** Sends 0.001 SOL from `payer` to a fresh address; returns the transaction's signature. */
async function sendToFreshAddress(chain: ChainPort, payer: KeyPairSigner): Promise<string> {
  const to = (await generateKeyPairSigner()).address;
  const { signature, wire } = await transferWire(chain, payer, to, 1_000_000n);
  await chain.sendTransaction(wire);
  return signature;
}

/** The ExecutionOutcome fields of a refusal (an implementation may carry more on the object). */
function outcomeOf(refused: SubmissionRejected) {
  const { err, logs, computeUnitsConsumed, fee, returnData } = refused.outcome ?? {};
  return { err, logs, computeUnitsConsumed, fee, returnData };
}

async function rejection(promise: Promise<unknown>): Promise<SubmissionRejected> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SubmissionRejected);
  return error as SubmissionRejected;
}

beforeAll(async () => {
  cluster = await createEmbeddedCluster({ slotMs: 0 });
  localnet = await startLocalnet({ cluster, rpcPort: 0, wsPort: 0 });
  ports["in-process"] = inProcessChain(cluster);
  ports.rpc = await connectRpcChain({
    rpcUrl: localnet.rpcUrl,
    wsUrl: localnet.wsUrl,
    programId: cluster.programId,
    usdgMint: cluster.usdgMint,
    onWarning: (error) => warnings.push(error),
  });
});

afterAll(async () => {
  await ports.rpc?.close();
  await ports["in-process"]?.close();
  await localnet?.close();
  cluster?.stop();
});

describe.each(["in-process", "rpc"] as const)("chain port contract: %s", (name) => {
  const chain = () => ports[name];

  it("Given the cluster, When the port is read, Then it names the cluster's genesis, program and mint", () => {
    expect(chain().genesisHash).toBe(cluster.genesisHash);
    expect(chain().programId).toBe(cluster.programId);
    expect(chain().usdgMint).toBe(cluster.usdgMint);
  });

  it("Given a manual clock, When slots and heights are read, Then processed is the newest and each moves with the clock", async () => {
    const processed = await chain().getSlot();
    expect(processed).toBe(cluster.getSlot("processed"));
    expect(await chain().getSlot("confirmed")).toBe(processed - 1n);
    expect(await chain().getSlot("finalized")).toBe(cluster.getSlot("finalized"));
    const height = await chain().getBlockHeight();
    expect(height).toBe(cluster.getBlockHeight());

    cluster.clock.advance(2);

    expect(await chain().getSlot()).toBe(processed + 2n);
    expect(await chain().getBlockHeight()).toBe(height + 2n);
  });

  it("Given the latest blockhash, When it and an unknown hash are checked, Then only it is valid", async () => {
    const latest = await chain().getLatestBlockhash();

    expect(latest).toEqual(cluster.getLatestBlockhash());
    expect(typeof latest.lastValidBlockHeight).toBe("bigint");
    expect(await chain().isBlockhashValid(latest.blockhash)).toBe(true);
    expect(await chain().isBlockhashValid(randomHash())).toBe(false);
  });

  it("Given data lengths, When the rent-exempt minimum is asked, Then it is Solana's", async () => {
    expect(await chain().minimumBalanceForRentExemption(0)).toBe(890_880n);
    expect(await chain().minimumBalanceForRentExemption(165)).toBe(
      cluster.minimumBalanceForRentExemption(165),
    );
  });

  it("Given an airdrop, When the account is read, Then it holds the lamports, System-owned, and the airdrop is history once confirmed", async () => {
    const wallet = await generateKeyPairSigner();

    const signature = await chain().requestAirdrop(wallet.address, 3n * SOL);

    const account = await chain().getAccount(wallet.address);
    expect(account).toEqual({
      address: wallet.address,
      lamports: 3n * SOL,
      owner: SYSTEM_PROGRAM,
      executable: false,
      rentEpoch: cluster.getAccount(wallet.address)?.rentEpoch,
      data: new Uint8Array(),
    });
    expect(await chain().getTransaction(signature)).toBeNull(); // confirmed is the default
    cluster.clock.advance(1);
    const record = await chain().getTransaction(signature);
    expect(record?.err).toBeNull();
    expect(record?.accountKeys).toContain(wallet.address);
  });

  it("Given a small airdrop to a new account, When requested, Then it is refused and nothing lands", async () => {
    const wallet = await generateKeyPairSigner();

    const refused = await rejection(chain().requestAirdrop(wallet.address, 1n));

    expect(refused.kind).toBe("preflight_failed");
    expect(await chain().getAccount(wallet.address)).toBeNull();
  });

  it("Given a signed System transfer, When sent with preflight, Then it lands with the cluster's record: keys, balances, fee, logs, wire", async () => {
    const payer = await fundedSigner(chain());
    const payee = await generateKeyPairSigner();
    const { signature, wire } = await transferWire(chain(), payer, payee.address, SOL);

    expect(await chain().sendTransaction(wire, { preflight: true })).toBe(signature);
    expect(await chain().getTransaction(signature)).toBeNull();
    cluster.clock.advance(1);

    const record = await chain().getTransaction(signature);
    expect(record).toEqual(cluster.getTransaction(signature, "confirmed"));
    expect(record).toMatchObject({
      signature,
      err: null,
      fee: 5_000n,
      wire,
      accountKeys: [payer.address, payee.address, SYSTEM_PROGRAM],
      loadedAddresses: { writable: [], readonly: [] },
      preBalances: [2n * SOL, 0n, 1n],
      postBalances: [SOL - 5_000n, SOL, 1n],
      innerInstructions: [],
      returnData: null,
      logs: [`Program ${SYSTEM_PROGRAM} invoke [1]`, `Program ${SYSTEM_PROGRAM} success`],
    });
    expect(record?.computeUnitsConsumed).toBe(150n);
    expect(record?.blockTime).toBe(cluster.getTransaction(signature, "confirmed")?.blockTime);
    expect((await chain().getAccount(payee.address))?.lamports).toBe(SOL);
  });

  it("Given a transfer of more than the payer has, When sent without preflight, Then it lands failed with Solana's error JSON and pays its fee", async () => {
    const payer = await fundedSigner(chain(), 1n);
    const { signature, wire } = await transferWire(
      chain(),
      payer,
      (await generateKeyPairSigner()).address,
      5n * SOL,
    );

    expect(await chain().sendTransaction(wire)).toBe(signature);
    cluster.clock.advance(1);

    const failure = { InstructionError: [0, { Custom: 1 }] };
    const status = await chain().getSignatureStatus(signature);
    expect(status).toEqual({
      slot: status?.slot,
      confirmations: 1,
      confirmationStatus: "confirmed",
      err: failure,
    });
    const record = await chain().getTransaction(signature);
    expect(record?.err).toEqual(failure);
    expect(JSON.stringify(record?.err)).toBe(JSON.stringify(failure)); // numbers, not bigints
    expect(record?.postBalances[0]).toBe(SOL - 5_000n);
  });

  it("Given refused submissions, When sent with preflight, Then each is SubmissionRejected of its kind and nothing lands", async () => {
    const payer = await fundedSigner(chain(), 1n);
    const payee = (await generateKeyPairSigner()).address;

    const failing = await transferWire(chain(), payer, payee, 5n * SOL);
    const simulated = await rejection(chain().sendTransaction(failing.wire, { preflight: true }));
    expect(simulated.kind).toBe("preflight_failed");
    expect(simulated.outcome?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(simulated.outcome?.logs).toContain(`Program ${SYSTEM_PROGRAM} failed: custom program error: 0x1`);

    const stale = await transferWire(chain(), payer, payee, 1n, randomHash());
    expect((await rejection(chain().sendTransaction(stale.wire, { preflight: true }))).kind).toBe(
      "blockhash_not_found",
    );

    const landed = await transferWire(chain(), payer, payee, SOL / 2n);
    await chain().sendTransaction(landed.wire, { preflight: true });
    expect((await rejection(chain().sendTransaction(landed.wire, { preflight: true }))).kind).toBe(
      "already_processed",
    );

    expect((await rejection(chain().sendTransaction(Uint8Array.of(1, 2, 3), { preflight: true }))).kind).toBe(
      "malformed",
    );

    const forged = await transferWire(chain(), payer, payee, 1n);
    const bytes = Uint8Array.from(forged.wire);
    bytes[1] = (bytes[1] as number) ^ 0xff; // first byte of the fee payer's signature
    const badSignature = await rejection(chain().sendTransaction(bytes, { preflight: true }));
    expect(badSignature.kind).toBe("preflight_failed");
    expect(badSignature.outcome?.err).toBe("SignatureFailure");

    for (const signature of [failing.signature, stale.signature, forged.signature]) {
      expect(await chain().getSignatureStatus(signature)).toBeNull();
    }
  });

  it("Given a transfer, When simulated, Then the outcome is the execution's and nothing lands; with a stale blockhash replaced, the latest is named", async () => {
    const payer = await fundedSigner(chain(), 1n);
    const payee = (await generateKeyPairSigner()).address;
    const { signature, wire } = await transferWire(chain(), payer, payee, 1_000_000n);

    expect(await chain().simulateTransaction(wire, { sigVerify: true })).toEqual({
      err: null,
      logs: [`Program ${SYSTEM_PROGRAM} invoke [1]`, `Program ${SYSTEM_PROGRAM} success`],
      computeUnitsConsumed: 150n,
      fee: 5_000n,
      returnData: null,
      replacementBlockhash: null,
    });
    expect(await chain().getSignatureStatus(signature)).toBeNull();

    const stale = await transferWire(chain(), payer, payee, 1_000_000n, randomHash());
    expect((await chain().simulateTransaction(stale.wire)).err).toBe("BlockhashNotFound");
    const replaced = await chain().simulateTransaction(stale.wire, { replaceRecentBlockhash: true });
    expect(replaced.err).toBeNull();
    expect(replaced.replacementBlockhash).toBe(cluster.getLatestBlockhash().blockhash);
    expect((await rejection(chain().simulateTransaction(Uint8Array.of(9)))).kind).toBe("malformed");
  });

  it("Given landed and unknown signatures, When statuses are asked for more than one RPC page (256), Then they come back in order", async () => {
    const payer = await fundedSigner(chain(), 1n);
    const signature = await sendToFreshAddress(chain(), payer);
    const signatures = Array.from({ length: 300 }, randomSignature);
    signatures[280] = signature;

    const processed = await chain().getSignatureStatuses(signatures);
    cluster.clock.advance(32);
    const finalized = await chain().getSignatureStatuses(signatures);

    expect(processed).toHaveLength(300);
    expect(processed.filter((status) => status !== null)).toHaveLength(1);
    expect(processed[280]).toEqual({
      slot: processed[280]?.slot,
      confirmations: 0,
      confirmationStatus: "processed",
      err: null,
    });
    expect(finalized[280]).toEqual({
      slot: processed[280]?.slot,
      confirmations: null,
      confirmationStatus: "finalized",
      err: null,
    });
    expect(await chain().getSignatureStatus(signature)).toEqual(finalized[280]);
  });

  it("Given a landed transaction, When fetched at each commitment, Then confirmed is the default and finalized waits 32 slots", async () => {
    const payer = await fundedSigner(chain(), 1n);
    const signature = await sendToFreshAddress(chain(), payer);

    expect(await chain().getTransaction(signature)).toBeNull();
    cluster.clock.advance(1);
    expect(await chain().getTransaction(signature)).not.toBeNull();
    expect(await chain().getTransaction(signature, "finalized")).toBeNull();
    cluster.clock.advance(31);
    expect((await chain().getTransaction(signature, "finalized"))?.signature).toBe(signature);
    expect(await chain().getTransaction(randomSignature())).toBeNull();
  });

  it("Given five transactions of one address, When its signatures are paged, Then they come newest first with exclusive bounds", async () => {
    const payer = await fundedSigner(chain(), 1n);
    const sent: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      sent.push(await sendToFreshAddress(chain(), payer));
      cluster.clock.advance(1); // a fresh blockhash for the next one
    }
    const newestFirst = [...sent].reverse();
    const page = async (options: { before?: string; until?: string; limit?: number }) =>
      (await chain().getSignaturesForAddress(payer.address, { ...options, commitment: "confirmed" })).map(
        (info) => info.signature,
      );

    const all = await chain().getSignaturesForAddress(payer.address, { commitment: "confirmed" });
    expect(all.map((info) => info.signature).slice(0, 4)).toEqual(newestFirst);
    expect(all).toHaveLength(5); // and the airdrop that funded it
    expect(all[0]).toEqual({
      signature: newestFirst[0],
      slot: cluster.getSignatureStatus(newestFirst[0] as string)?.slot,
      err: null,
      blockTime: cluster.getTransaction(newestFirst[0] as string, "confirmed")?.blockTime,
      confirmationStatus: "confirmed",
    });
    expect(await page({ limit: 2 })).toEqual(newestFirst.slice(0, 2));
    expect(await page({ before: newestFirst[1], limit: 2 })).toEqual(newestFirst.slice(2, 4));
    expect(await page({ before: newestFirst[0], until: newestFirst[3] })).toEqual(newestFirst.slice(1, 3));
  });

  it("Given accounts of several kinds, When read one by one, together and by owner, Then the bytes and fields are the cluster's", async () => {
    const wallet = await fundedSigner(chain(), 1n);
    const missing = (await generateKeyPairSigner()).address;

    const mint = await chain().getAccount(cluster.usdgMint);
    expect(mint).toEqual(cluster.getAccount(cluster.usdgMint));
    expect(mint?.owner).toBe(TOKEN_2022_PROGRAM);
    expect(await chain().getAccount(missing)).toBeNull();
    expect(await chain().getMultipleAccounts([wallet.address, missing, cluster.usdgMint])).toEqual([
      cluster.getAccount(wallet.address),
      null,
      mint,
    ]);

    const byAddress = (accounts: { address: string }[]) =>
      [...accounts].sort((a, b) => a.address.localeCompare(b.address));
    const owned = await chain().getProgramAccounts(TOKEN_2022_PROGRAM);
    expect(byAddress(owned)).toEqual(byAddress(cluster.getProgramAccounts(TOKEN_2022_PROGRAM)));
    expect(owned.map((account) => account.address)).toContain(cluster.usdgMint);
  });

  it("Given a slot listener, When the clock advances, Then every new slot is heard in order, and none after unsubscribe", async () => {
    const heard: bigint[] = [];
    const unsubscribe = chain().onSlot((slot) => heard.push(slot));
    // A second listener stays: what it hears shows the slots were announced.
    const witnessed: bigint[] = [];
    const unsubscribeWitness = chain().onSlot((slot) => witnessed.push(slot));
    // A socket subscription opens asynchronously: produce slots until both hear one.
    await eventually(
      () => {
        cluster.clock.advance(1);
        return Math.min(heard.length, witnessed.length);
      },
      (count) => count > 0,
    );
    const from = cluster.getSlot();
    cluster.clock.advance(3);
    await eventually(
      () => heard.at(-1),
      (last) => last === from + 3n,
    );
    expect(heard.slice(-3)).toEqual([from + 1n, from + 2n, from + 3n]);

    unsubscribe();
    const count = heard.length;
    cluster.clock.advance(2);
    await eventually(
      () => witnessed.at(-1),
      (last) => last === from + 5n,
    );
    expect(heard).toHaveLength(count);
    unsubscribeWitness();
  });

  it("Given a logs listener at confirmed, When a transaction mentioning the address lands, Then it is heard only once its slot is confirmed", async () => {
    const payer = await fundedSigner(chain(), 1n);
    const watched = (await generateKeyPairSigner()).address;
    const heard: { signature: string; slot: bigint; err: unknown; logs: readonly string[] }[] = [];
    const unsubscribe = chain().onLogs(watched, "confirmed", (notification) => heard.push(notification));
    // The same at processed: what it hears shows a landing was announced.
    const processed: string[] = [];
    const unsubscribeProcessed = chain().onLogs(watched, "processed", (notification) =>
      processed.push(notification.signature),
    );
    // Until the subscriptions are open a transaction may go unheard: land until both hear one.
    await eventually(
      async () => {
        const { wire } = await transferWire(chain(), payer, watched, 1_000_000n);
        await chain().sendTransaction(wire);
        cluster.clock.advance(1);
        await sleep(50);
        return Math.min(heard.length, processed.length);
      },
      (count) => count > 0,
    );
    const seen = heard.length;

    const { signature, wire } = await transferWire(chain(), payer, watched, 1_000_000n);
    await chain().sendTransaction(wire);
    await eventually(
      () => processed.includes(signature),
      (announced) => announced,
    );
    expect(heard.map((entry) => entry.signature)).not.toContain(signature);
    cluster.clock.advance(1);
    const notification = await eventually(
      () => heard.find((entry) => entry.signature === signature),
      (found) => found !== undefined,
    );

    const record = cluster.getTransaction(signature, "confirmed");
    expect(notification).toEqual({ signature, slot: record?.slot, err: null, logs: record?.logs });
    expect(heard.length).toBe(seen + 1);
    unsubscribe();
    unsubscribeProcessed();
  });
});

describe("chain port contract: both implementations answer alike", () => {
  const both = async <T>(ask: (chain: ChainPort) => Promise<T>): Promise<[T, T]> => [
    await ask(ports["in-process"]),
    await ask(ports.rpc),
  ];

  it("Given landed transactions, a failure and accounts, When both ports are asked the same, Then their answers are equal", async () => {
    const payer = await fundedSigner(ports.rpc, 1n);
    const payee = (await generateKeyPairSigner()).address;
    const ok = await transferWire(ports.rpc, payer, payee, SOL / 4n);
    await ports["in-process"].sendTransaction(ok.wire);
    cluster.clock.advance(1);
    const failed = await transferWire(ports.rpc, payer, payee, 5n * SOL);
    await ports.rpc.sendTransaction(failed.wire);
    cluster.clock.advance(1);
    const unknown = randomSignature();

    for (const [a, b] of [
      await both((chain) => chain.getTransaction(ok.signature)),
      await both((chain) => chain.getTransaction(failed.signature)),
      await both((chain) => chain.getTransaction(unknown)),
      await both((chain) => chain.getSignatureStatuses([ok.signature, failed.signature, unknown])),
      await both((chain) => chain.getSignaturesForAddress(payer.address, { commitment: "confirmed" })),
      await both((chain) => chain.getSignaturesForAddress(payer.address, { commitment: "finalized" })),
      await both((chain) =>
        chain.getMultipleAccounts([payer.address, payee, randomHash(), cluster.usdgMint]),
      ),
      await both((chain) => chain.getLatestBlockhash()),
      await both((chain) =>
        Promise.all([chain.getSlot(), chain.getSlot("confirmed"), chain.getSlot("finalized")]),
      ),
      await both((chain) => chain.getBlockHeight("finalized")),
      await both((chain) => chain.minimumBalanceForRentExemption(82)),
    ] as [unknown, unknown][]) {
      expect(b).toEqual(a);
    }
    const [inProcessOwned, rpcOwned] = await both((chain) => chain.getProgramAccounts(cluster.programId));
    const sorted = (accounts: { address: string }[]) =>
      [...accounts].sort((x, y) => x.address.localeCompare(y.address));
    expect(sorted(rpcOwned)).toEqual(sorted(inProcessOwned));
  });

  it("Given the same refused and simulated transactions, When both ports are sent them, Then the kinds and outcomes are equal", async () => {
    const payer = await fundedSigner(ports.rpc, 1n);
    const payee = (await generateKeyPairSigner()).address;
    const failing = await transferWire(ports.rpc, payer, payee, 5n * SOL);
    const stale = await transferWire(ports.rpc, payer, payee, 1n, randomHash());
    const good = await transferWire(ports.rpc, payer, payee, SOL / 4n);

    for (const wire of [failing.wire, stale.wire, Uint8Array.of(1, 2, 3)]) {
      const [a, b] = await both((chain) => rejection(chain.sendTransaction(wire, { preflight: true })));
      expect(b.kind).toBe(a.kind);
      expect(b.outcome?.err ?? null).toEqual(
        a.outcome?.err ?? (a.kind === "blockhash_not_found" ? "BlockhashNotFound" : null),
      );
      if (a.kind === "preflight_failed") expect(outcomeOf(b)).toEqual(outcomeOf(a));
    }
    for (const wire of [good.wire, failing.wire, stale.wire]) {
      const [a, b] = await both((chain) => chain.simulateTransaction(wire));
      expect(b).toEqual(a);
    }
  });
});

describe("chain port contract: the RPC port's warnings", () => {
  it("Given every subscription above, Then the RPC port had nothing to warn about", () => {
    expect(warnings).toEqual([]);
  });
});
