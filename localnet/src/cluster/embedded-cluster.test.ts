import {
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPairSigner,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SubmissionRejected, type TransactionRecord } from "./cluster-port";
import { createEmbeddedCluster, type EmbeddedCluster } from "./embedded-cluster";
import { buildWire, fundedSigner, transferWire } from "./test-helpers";

const SYSVAR_CLOCK = "SysvarC1ock11111111111111111111111111111111";
const COMPUTE_BUDGET = address("ComputeBudget111111111111111111111111111111");

let cluster: EmbeddedCluster;

beforeEach(async () => {
  cluster = await createEmbeddedCluster({ slotMs: 0, programPath: null, unixTime: 1_800_000_000 });
});
afterEach(() => cluster.stop());

function rejection(run: () => unknown): SubmissionRejected {
  try {
    run();
  } catch (error) {
    if (error instanceof SubmissionRejected) return error;
    throw error;
  }
  throw new Error("expected a SubmissionRejected");
}

describe("commitment follows the slot clock", () => {
  it("is processed in its slot, confirmed one slot later, finalized after 32", async () => {
    // Given a funded payer and a transfer landed in the current slot
    const payer = await fundedSigner(cluster);
    const landedIn = cluster.getSlot();
    const signature = cluster.sendTransaction(await transferWire(cluster, payer, payer.address, 1n));

    // Then it is only processed, and invisible to a confirmed read
    expect(cluster.getSignatureStatus(signature)).toMatchObject({
      slot: landedIn,
      confirmations: 0,
      confirmationStatus: "processed",
      err: null,
    });
    expect(cluster.getTransaction(signature, "confirmed")).toBeNull();

    // When one slot passes, it is confirmed
    cluster.clock.advance(1);
    expect(cluster.getSignatureStatus(signature)?.confirmationStatus).toBe("confirmed");
    expect(cluster.getTransaction(signature, "confirmed")?.signature).toBe(signature);

    // When 31 slots have passed it is still only confirmed; at 32 it is finalized
    cluster.clock.advance(30);
    expect(cluster.getSignatureStatus(signature)).toMatchObject({
      confirmations: 31,
      confirmationStatus: "confirmed",
    });
    cluster.clock.advance(1);
    expect(cluster.getSignatureStatus(signature)).toMatchObject({
      confirmations: null,
      confirmationStatus: "finalized",
    });
    expect(cluster.getTransaction(signature, "finalized")?.slot).toBe(landedIn);
    expect(cluster.getSlot("finalized")).toBe(landedIn);
  });

  it("announces each slot with its confirmed and finalized slots", () => {
    // Given a slot listener
    const updates: { slot: bigint; confirmed: bigint; finalized: bigint }[] = [];
    const unsubscribe = cluster.on("slot", (update) => updates.push(update));
    const start = cluster.getSlot();

    // When three slots pass
    cluster.clock.advance(3);
    unsubscribe();
    cluster.clock.advance(1);

    // Then it heard three updates, in order, and nothing after unsubscribing
    expect(updates.map((u) => u.slot)).toEqual([start + 1n, start + 2n, start + 3n]);
    expect(updates[2]?.confirmed).toBe(start + 2n);
  });

  it("produces slots on its own with a timer, and stops", async () => {
    // Given a cluster with 10 ms slots
    const timed = await createEmbeddedCluster({ slotMs: 10, programPath: null });
    const start = timed.getSlot();

    // When some time passes (polled: a loaded machine delays timers)
    for (let waited = 0; timed.getSlot() < start + 4n && waited < 5000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    timed.stop();
    const stoppedAt = timed.getSlot();
    await new Promise((resolve) => setTimeout(resolve, 50));

    // Then slots advanced while running and not after stop()
    expect(stoppedAt).toBeGreaterThan(start + 3n);
    expect(timed.getSlot()).toBe(stoppedAt);
    expect(timed.clock.running).toBe(false);
  });
});

describe("blockhashes", () => {
  it("change every slot and stay valid for 150 blocks", async () => {
    // Given a blockhash and a payer
    const payer = await fundedSigner(cluster);
    const { blockhash, lastValidBlockHeight } = cluster.getLatestBlockhash();
    expect(lastValidBlockHeight).toBe(cluster.getBlockHeight() + 150n);

    // When a slot passes there is a new blockhash, and the old one still works 150 blocks on
    cluster.clock.advance(1);
    expect(cluster.getLatestBlockhash().blockhash).not.toBe(blockhash);
    cluster.clock.advance(149);
    expect(cluster.getBlockHeight()).toBe(lastValidBlockHeight);
    expect(cluster.isBlockhashValid(blockhash)).toBe(true);
    const signature = cluster.sendTransaction(
      await transferWire(cluster, payer, payer.address, 1n, blockhash),
    );
    expect(cluster.getSignatureStatus(signature)?.err).toBeNull();

    // Then one block later it is refused, and nothing lands
    cluster.clock.advance(1);
    expect(cluster.isBlockhashValid(blockhash)).toBe(false);
    const wire = await transferWire(cluster, payer, payer.address, 2n, blockhash);
    expect(rejection(() => cluster.sendTransaction(wire)).kind).toBe("blockhash_not_found");
    expect(cluster.simulateTransaction(wire).err).toBe("BlockhashNotFound");
  });

  it("refuses a blockhash the cluster never produced", async () => {
    const payer = await fundedSigner(cluster);
    const wire = await transferWire(
      cluster,
      payer,
      payer.address,
      1n,
      "4QjEBrJnATvydaCoPb7j4cneA5vSJNFsAYHQwRAjAjmZ",
    );
    expect(rejection(() => cluster.sendTransaction(wire)).kind).toBe("blockhash_not_found");
  });
});

describe("submission", () => {
  it("refuses a duplicate signature, even after slots pass", async () => {
    // Given a landed transaction
    const payer = await fundedSigner(cluster);
    const wire = await transferWire(cluster, payer, payer.address, 1n);
    cluster.sendTransaction(wire);
    cluster.clock.advance(5);

    // When the same bytes are sent again, Then they are refused and history holds one copy
    expect(rejection(() => cluster.sendTransaction(wire)).kind).toBe("already_processed");
    expect(cluster.getSignaturesForAddress(payer.address)).toHaveLength(2); // airdrop + transfer
  });

  it("lands a failing transaction with Solana's error JSON, and charges its fee", async () => {
    // Given a payer with 1 SOL trying to send 5 SOL
    const payer = await fundedSigner(cluster, 1_000_000_000n);
    const recipient = (await generateKeyPairSigner()).address;
    const events: TransactionRecord[] = [];
    cluster.on("transaction", (record) => events.push(record));

    // When it is sent without preflight
    const signature = cluster.sendTransaction(await transferWire(cluster, payer, recipient, 5_000_000_000n));

    // Then it landed with System's custom error 1 (ResultWithNegativeLamports)
    const record = cluster.getTransaction(signature);
    expect(record?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(cluster.getSignatureStatus(signature)?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(record?.logs.join("\n")).toContain("insufficient lamports");
    // And only the fee moved
    expect(record?.fee).toBe(5000n);
    expect(record?.preBalances[0]).toBe(1_000_000_000n);
    expect(record?.postBalances[0]).toBe(1_000_000_000n - 5000n);
    expect(cluster.getAccount(payer.address)?.lamports).toBe(1_000_000_000n - 5000n);
    expect(cluster.getAccount(recipient)).toBeNull();
    // And it was announced and is in the recipient's history too
    expect(events.map((e) => e.signature)).toEqual([signature]);
    expect(cluster.getSignaturesForAddress(recipient).map((s) => s.signature)).toEqual([signature]);
  });

  it("computes the fee of a prioritized transaction exactly as the runtime charges it", async () => {
    // Given a failing transfer with a compute-unit limit and price (priority fee)
    const payer = await fundedSigner(cluster, 1_000_000_000n);
    const limit = new Uint8Array([2, 0x40, 0x0d, 0x03, 0x00]); // SetComputeUnitLimit(200_000)
    const price = new Uint8Array([3, 0xe8, 0x03, 0, 0, 0, 0, 0, 0]); // SetComputeUnitPrice(1_000 µ-lamports)
    const wire = await buildWire({
      payer,
      blockhash: cluster.getLatestBlockhash().blockhash,
      instructions: [
        { programAddress: COMPUTE_BUDGET, data: limit },
        { programAddress: COMPUTE_BUDGET, data: price },
        getTransferSolInstruction({ source: payer, destination: payer.address, amount: 10_000_000_000n }),
      ],
    });

    // When it lands
    const record = cluster.getTransaction(cluster.sendTransaction(wire));

    // Then the recorded fee = 5000 + ceil(1000 * 200000 / 1e6) = 5200, what LiteSVM debited
    expect(record?.fee).toBe(5200n);
    expect((record?.preBalances[0] ?? 0n) - (record?.postBalances[0] ?? 0n)).toBe(5200n);
  });

  it("with preflight, refuses a failing transaction and lands nothing", async () => {
    const payer = await fundedSigner(cluster, 1_000_000_000n);
    const wire = await transferWire(cluster, payer, payer.address, 5_000_000_000n);
    const error = rejection(() => cluster.sendTransaction(wire, { preflight: true }));
    expect(error.kind).toBe("preflight_failed");
    expect(error.outcome?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(cluster.getSignaturesForAddress(payer.address)).toHaveLength(1); // the airdrop only
  });

  it("refuses a bad signature, bad bytes and an unfunded fee payer without landing them", async () => {
    const payer = await fundedSigner(cluster);
    const tampered = await transferWire(cluster, payer, payer.address, 1n);
    tampered[10] = (tampered[10] ?? 0) ^ 1; // a byte of the fee payer's signature
    expect(rejection(() => cluster.sendTransaction(tampered)).kind).toBe("signature_failure");

    expect(rejection(() => cluster.sendTransaction(new Uint8Array([1, 2, 3]))).kind).toBe("malformed");
    const good = await transferWire(cluster, payer, payer.address, 2n);
    expect(rejection(() => cluster.sendTransaction(new Uint8Array([...good, 0]))).kind).toBe("malformed");

    const stranger = await generateKeyPairSigner();
    const unfunded = await transferWire(cluster, stranger, payer.address, 1n);
    const error = rejection(() => cluster.sendTransaction(unfunded));
    expect(error.kind).toBe("load_failed");
    expect(error.outcome?.err).toBe("AccountNotFound");
    expect(cluster.getSignaturesForAddress(stranger.address)).toEqual([]);
  });
});

describe("unsigned transactions", () => {
  it("are refused on send but can be simulated without signature checks", async () => {
    // Given a transfer compiled but never signed (all-zero signature)
    const payer = await fundedSigner(cluster);
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(payer.address, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: cluster.getLatestBlockhash().blockhash as Blockhash, lastValidBlockHeight: 0n },
          m,
        ),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getTransferSolInstruction({
              source: createNoopSigner(payer.address),
              destination: payer.address,
              amount: 1n,
            }),
          ],
          m,
        ),
    );
    const wire = new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)));

    // Then
    expect(rejection(() => cluster.sendTransaction(wire)).kind).toBe("signature_failure");
    expect(cluster.simulateTransaction(wire).err).toBeNull();
    expect(cluster.simulateTransaction(wire, { sigVerify: true }).err).toBe("SignatureFailure");
  });
});

describe("simulation", () => {
  it("runs against current state without landing, with optional signature checks", async () => {
    // Given a transfer signed on a blockhash that has since expired
    const payer = await fundedSigner(cluster);
    const stale = cluster.getLatestBlockhash().blockhash;
    const wire = await transferWire(cluster, payer, payer.address, 1n, stale);
    cluster.clock.advance(151);

    // When simulated as is, Then the blockhash is refused
    expect(cluster.simulateTransaction(wire).err).toBe("BlockhashNotFound");

    // When simulated on the latest blockhash, Then it succeeds and reports what it used
    const replaced = cluster.simulateTransaction(wire, { replaceRecentBlockhash: true });
    expect(replaced.err).toBeNull();
    expect(replaced.replacementBlockhash).toBe(cluster.getLatestBlockhash().blockhash);
    expect(replaced.computeUnitsConsumed).toBe(150n);
    expect(replaced.fee).toBe(5000n);
    expect(replaced.logs[0]).toBe("Program 11111111111111111111111111111111 invoke [1]");

    // And nothing landed
    expect(cluster.getSignaturesForAddress(payer.address)).toHaveLength(1);
    expect(() =>
      cluster.simulateTransaction(wire, { sigVerify: true, replaceRecentBlockhash: true }),
    ).toThrow(/sigVerify/);
  });

  it("checks signatures only when asked", async () => {
    const payer = await fundedSigner(cluster);
    const wire = await transferWire(cluster, payer, payer.address, 1n);
    wire[10] = (wire[10] ?? 0) ^ 1; // a byte of the fee payer's signature
    expect(cluster.simulateTransaction(wire).err).toBeNull();
    expect(cluster.simulateTransaction(wire, { sigVerify: true }).err).toBe("SignatureFailure");
  });
});

describe("faucet and history", () => {
  it("airdrops with a real System transfer that has a signature and shows in history", async () => {
    // Given a new address
    const recipient = (await generateKeyPairSigner()).address;

    // When it asks for 2 SOL twice in the same slot
    const first = cluster.requestAirdrop(recipient, 2_000_000_000n);
    const second = cluster.requestAirdrop(recipient, 2_000_000_000n);

    // Then two different real transfers from the faucet landed, paid by the faucet
    expect(first).not.toBe(second);
    expect(cluster.getAccount(recipient)?.lamports).toBe(4_000_000_000n);
    const record = cluster.getTransaction(first);
    expect(record?.accountKeys).toEqual([
      cluster.keys.faucet.address,
      recipient,
      "11111111111111111111111111111111",
    ]);
    expect(record?.err).toBeNull();
    expect(record?.logs).toContain("Program 11111111111111111111111111111111 success");
    expect(cluster.getSignaturesForAddress(cluster.keys.faucet.address)[0]?.signature).toBe(second);
  });

  it("lists an address's signatures newest first, and pages with before / until / limit", async () => {
    // Given five transactions touching one address, landed over three slots
    const payer = await fundedSigner(cluster); // #0: the airdrop
    const sent: string[] = [];
    for (let i = 1; i <= 4; i++) {
      if (i === 3) cluster.clock.advance(1);
      sent.push(cluster.sendTransaction(await transferWire(cluster, payer, payer.address, BigInt(i))));
    }
    const all = cluster.getSignaturesForAddress(payer.address).map((s) => s.signature);
    const airdrop = all[4] as string;

    // Then newest first
    expect(all).toEqual([...sent].reverse().concat(airdrop));
    const infos = cluster.getSignaturesForAddress(payer.address);
    expect(infos[0]?.slot).toBeGreaterThan(infos[3]?.slot ?? 0n);
    expect(infos[0]?.blockTime).toBe(1_800_000_000n); // the clock's time, 400 ms per slot

    // And pages follow
    const page1 = cluster.getSignaturesForAddress(payer.address, { limit: 2 }).map((s) => s.signature);
    const page2 = cluster
      .getSignaturesForAddress(payer.address, { limit: 2, before: page1[1] })
      .map((s) => s.signature);
    const page3 = cluster
      .getSignaturesForAddress(payer.address, { limit: 2, before: page2[1] })
      .map((s) => s.signature);
    expect([...page1, ...page2, ...page3]).toEqual(all);
    expect(
      cluster.getSignaturesForAddress(payer.address, { until: sent[1] }).map((s) => s.signature),
    ).toEqual([sent[3], sent[2]]);
    expect(
      cluster
        .getSignaturesForAddress(payer.address, { before: sent[3], until: sent[0] })
        .map((s) => s.signature),
    ).toEqual([sent[2], sent[1]]);
  });
});

describe("time", () => {
  it("setUnixTime and warpTime move the Clock sysvar; slots add 400 ms each", () => {
    // Given the cluster at 2027-01-15 23:59:59 UTC
    const midnightMinusOne = BigInt(Date.UTC(2027, 0, 15, 23, 59, 59) / 1000);
    cluster.clock.setUnixTime(midnightMinusOne);

    // Then the Clock sysvar account says so, at the current slot
    const read = () => {
      const data = cluster.getAccount(SYSVAR_CLOCK)?.data ?? new Uint8Array(40);
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      return { slot: view.getBigUint64(0, true), unixTimestamp: view.getBigInt64(32, true) };
    };
    expect(read()).toEqual({ slot: cluster.getSlot(), unixTimestamp: midnightMinusOne });

    // When three slots pass (1.2 s), Then it is past midnight
    cluster.clock.advance(3);
    expect(read()).toEqual({ slot: cluster.getSlot(), unixTimestamp: midnightMinusOne + 1n });

    // When time warps a day without slots
    const slot = cluster.getSlot();
    cluster.clock.warpTime(86_400);
    expect(read()).toEqual({ slot, unixTimestamp: midnightMinusOne + 1n + 86_400n });
  });

  it("stamps transactions with the time of their slot", async () => {
    cluster.clock.setUnixTime(1_900_000_000);
    const signature = cluster.requestAirdrop((await generateKeyPairSigner()).address, 1_000_000_000n);
    expect(cluster.getTransaction(signature)?.blockTime).toBe(1_900_000_000n);
  });
});

describe("accounts", () => {
  it("reads accounts and lists a program's accounts by owner", () => {
    const faucet = cluster.getAccount(cluster.keys.faucet.address);
    expect(faucet?.owner).toBe("11111111111111111111111111111111");
    expect(faucet?.lamports).toBeGreaterThan(0n);
    const tokenAccounts = cluster.getProgramAccounts("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
    expect(tokenAccounts.map((a) => a.address)).toEqual([cluster.usdgMint]);
    expect(cluster.minimumBalanceForRentExemption(0)).toBe(890_880n);
  });

  it("funds the fee reserve with a real airdrop", () => {
    expect(cluster.getAccount(cluster.feeReserve)?.lamports).toBe(10_000_000_000_000n);
    const [funding] = cluster.getSignaturesForAddress(cluster.feeReserve);
    expect(cluster.getTransaction(funding?.signature ?? "")?.accountKeys[0]).toBe(
      cluster.keys.faucet.address,
    );
  });
});
