import { afterEach, describe, expect, it } from "vitest";
import { isConfidentialError } from "./errors";
import { randomKeysets } from "./keys.test-support";
import { buildTransferProofsOnPool } from "./pooled-transfer-proofs";
import { configureProofPool, proofPoolState, proofTask, runProofTask } from "./proof-pool";
import type { PoolTestInput } from "./proof-pool-test-task";
import { buildTransferProofs, type TransferProofInput } from "./transfer-proofs";
import {
  AeCiphertext,
  BatchedGroupedCiphertext3HandlesValidityProofData,
  BatchedRangeProofU128Data,
  CiphertextCommitmentEqualityProofData,
} from "./zk-sdk";

const TEST_TASK = proofTask<PoolTestInput, { threadId: number }>(
  new URL("./proof-pool-test-task.ts", import.meta.url),
);
const [sender, recipient] = randomKeysets(2);
const BALANCE = 5_000_000n;

function transferInput(amount: bigint): TransferProofInput {
  return {
    keys: sender,
    availableCiphertext: sender.elgamal.pubkey().encryptU64(BALANCE).toBytes(),
    availableBalance: BALANCE,
    amount,
    recipientPubkey: recipient.elgamalPubkey,
    auditorPubkey: new Uint8Array(32),
  };
}

afterEach(() => configureProofPool({}));

describe("transfer proofs on the proof pool", () => {
  it("Given a transfer, When its proofs are made on the pool, Then each verifies and the AE copy holds the new balance", async () => {
    const proofs = await buildTransferProofsOnPool(transferInput(1_234_567n));
    expect(() =>
      CiphertextCommitmentEqualityProofData.fromBytes(proofs.equalityProof).verify(),
    ).not.toThrow();
    expect(() =>
      BatchedGroupedCiphertext3HandlesValidityProofData.fromBytes(proofs.ciphertextValidityProof).verify(),
    ).not.toThrow();
    expect(() => BatchedRangeProofU128Data.fromBytes(proofs.rangeProof).verify()).not.toThrow();
    expect(
      sender.ae.decrypt(AeCiphertext.fromBytes(proofs.newDecryptableAvailableBalance) as AeCiphertext),
    ).toBe(BALANCE - 1_234_567n);
    // The same shapes as on this thread, and a tampered proof does not verify: the checks can fail.
    const serial = buildTransferProofs(transferInput(1_234_567n));
    expect(proofs.rangeProof.length).toBe(serial.rangeProof.length);
    const tampered = proofs.rangeProof.slice();
    tampered[300] = (tampered[300] ?? 0) ^ 1;
    expect(() => BatchedRangeProofU128Data.fromBytes(tampered).verify()).toThrow();
  });

  it("Given an amount above the balance, Then the pool is never asked and the error is the balance's", async () => {
    const before = proofPoolState().started;
    await expect(buildTransferProofsOnPool(transferInput(BALANCE + 1n))).rejects.toSatisfy((error: unknown) =>
      isConfidentialError(error, "insufficient_confidential_balance"),
    );
    expect(proofPoolState().started).toBe(before);
  });
});

describe("the proof pool's workers", () => {
  it("Given a size of 2, When five jobs are queued, Then two workers start, the rest wait, and two threads run them all", async () => {
    configureProofPool({ workers: 2 });
    const jobs = Array.from({ length: 5 }, () => runProofTask(TEST_TASK, { op: "spin", ms: 30 }));
    expect(proofPoolState()).toEqual({ size: 2, started: 2, busy: 2, queued: 3 });
    const threads = new Set((await Promise.all(jobs)).map((reply) => reply.threadId));
    expect(threads.size).toBe(2);
    expect(proofPoolState()).toMatchObject({ started: 2, busy: 0, queued: 0 });
  });

  it("Given a worker that dies mid-job, Then only its job fails, clearly, and a replacement runs the next", async () => {
    configureProofPool({ workers: 2 });
    const survivor = runProofTask(TEST_TASK, { op: "spin", ms: 200 });
    const dying = runProofTask(TEST_TASK, { op: "exit" });
    await expect(dying).rejects.toSatisfy(
      (error: unknown) =>
        isConfidentialError(error, "proof_worker_failed") &&
        /died: exited with code 3/.test((error as Error).message),
    );
    // The dead worker is gone at once; the other one is untouched and finishes its job.
    expect(proofPoolState().started).toBe(1);
    await expect(survivor).resolves.toMatchObject({ threadId: expect.any(Number) });
    await expect(runProofTask(TEST_TASK, { op: "spin", ms: 1 })).resolves.toMatchObject({
      threadId: expect.any(Number),
    });
  });

  it("Given a task that throws, Then its job fails with the task's message and the worker stays", async () => {
    configureProofPool({ workers: 1 });
    const { threadId: first } = await runProofTask(TEST_TASK, { op: "spin", ms: 1 });
    await expect(runProofTask(TEST_TASK, { op: "throw" })).rejects.toSatisfy(
      (error: unknown) =>
        isConfidentialError(error, "proof_worker_failed") &&
        /test task refused/.test((error as Error).message),
    );
    const { threadId: after } = await runProofTask(TEST_TASK, { op: "spin", ms: 1 });
    expect(after).toBe(first);
  });

  it("Given an invalid size, Then configuring refuses it", () => {
    expect(() => configureProofPool({ workers: 0 })).toThrow(RangeError);
    expect(() => configureProofPool({ workers: 1.5 })).toThrow(RangeError);
  });
});

describe("the event loop while proofs run", () => {
  it("Given four transfers proved on the pool, Then timers keep firing: the longest gap is well below one transfer's proof time on this thread", async () => {
    configureProofPool({ workers: 2 });
    // Warm the workers (start-up loads the zk-sdk, which is not what is measured).
    await Promise.all([
      buildTransferProofsOnPool(transferInput(1n)),
      buildTransferProofsOnPool(transferInput(2n)),
    ]);

    const serialStart = performance.now();
    buildTransferProofs(transferInput(3n));
    const serialMs = performance.now() - serialStart;

    let longestGap = 0;
    let ticks = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 1);
    try {
      await Promise.all(
        [10n, 20n, 30n, 40n].map((amount) => buildTransferProofsOnPool(transferInput(amount))),
      );
    } finally {
      clearInterval(timer);
    }
    // On this thread each transfer would have stopped every timer for serialMs; on the pool the
    // loop only hands out jobs and takes answers.
    expect(ticks).toBeGreaterThan(2);
    expect(longestGap).toBeLessThan(serialMs / 2);
  });
});
