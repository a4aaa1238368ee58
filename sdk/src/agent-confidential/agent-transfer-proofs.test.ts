import { describe, expect, it } from "vitest";
import { isConfidentialError } from "../confidential/errors";
import { randomKeysets, thrownBy } from "../confidential/keys.test-support";
import {
  AeCiphertext,
  BatchedRangeProofU64Data,
  CiphertextCommitmentEqualityProofData,
} from "../confidential/zk-sdk";
import {
  buildAgentTransferProofs,
  buildAgentTransferProofsConcurrently,
  transferBound,
} from "./agent-transfer-proofs";
import { isPolicyLimitExceeded, type PolicyLimit } from "./errors";
import {
  parseValidityProofContext,
  transactionLimitCiphertext,
  transferAmountCiphertext,
} from "./limit-ciphertexts";
import type { ProverState } from "./prover-state";

const [agent, recipient] = randomKeysets(2);
const BALANCE = 1_000n;

/** Per transaction 100, daily 250, HITL 50; P = 20 public, 30 confidential spent today. */
const prover: ProverState = {
  today: 1n,
  perTransactionLimit: 100n,
  dailyLimit: 250n,
  hitlThreshold: 50n,
  publicSpentToday: 20n,
  spendCiphertext: agent.elgamal.pubkey().encryptU64(30n).toBytes(),
  confidentialSpentToday: 30n,
  source: "decryptable",
};

function build(amount: bigint, options: { requestHold?: boolean; state?: ProverState } = {}) {
  return buildAgentTransferProofs({
    keys: agent,
    availableCiphertext: agent.elgamal.pubkey().encryptU64(BALANCE).toBytes(),
    availableBalance: BALANCE,
    amount,
    recipientPubkey: recipient.elgamalPubkey,
    auditorPubkey: new Uint8Array(32),
    prover: options.state ?? prover,
    requestHold: options.requestHold,
  });
}

/** Whether `run` throws the refusal of `limit`. */
function breaksLimit(limit: PolicyLimit, run: () => unknown): boolean {
  return isPolicyLimitExceeded(thrownBy(run), limit);
}

describe("agent transfer proofs", () => {
  it("Given the policy, Then amounts up to min(per_tx, hitl) execute and larger ones (or a request) hold against per_tx", () => {
    expect(transferBound(prover, 50n, false)).toEqual({ hold: false, bound: 50n });
    expect(transferBound(prover, 51n, false)).toEqual({ hold: true, bound: 100n });
    expect(transferBound(prover, 10n, true)).toEqual({ hold: true, bound: 100n });
    expect(transferBound({ perTransactionLimit: 40n, hitlThreshold: 50n }, 10n, false)).toEqual({
      hold: false,
      bound: 40n,
    });
  });

  it("Given an executable amount, When the proofs are built, Then X_tx is formed from the validity proof's own A and the blobs hold total + a and a", () => {
    const proofs = build(40n);
    expect(proofs.hold).toBe(false);
    const amount = transferAmountCiphertext(
      parseValidityProofContext(proofs.transfer.ciphertextValidityProof),
    );
    expect(proofs.limits.transactionCiphertext).toEqual(transactionLimitCiphertext(50n, amount));
    const context = CiphertextCommitmentEqualityProofData.fromBytes(proofs.limits.transactionEqualityProof)
      .context()
      .toBytes();
    expect(context.slice(32, 96)).toEqual(proofs.limits.transactionCiphertext);
    expect(AeCiphertext.fromBytes(proofs.spendDecryptable)?.decrypt(agent.ae)).toBe(70n);
    expect(AeCiphertext.fromBytes(proofs.spendDecryptableNextDay)?.decrypt(agent.ae)).toBe(40n);
  });

  it("Given an amount above per_tx, Then the per-transaction limit is broken, hold or not", () => {
    expect(breaksLimit("per_transaction", () => build(101n))).toBe(true);
    expect(breaksLimit("per_transaction", () => build(101n, { requestHold: true }))).toBe(true);
  });

  it("Given an amount above what is left today, Then the daily limit is broken", () => {
    const tight = {
      ...prover,
      confidentialSpentToday: 200n,
      spendCiphertext: agent.elgamal.pubkey().encryptU64(200n).toBytes(),
    };
    expect(breaksLimit("daily", () => build(31n, { state: tight }))).toBe(true);
  });

  it("Given an amount above the balance, Then it is refused before any proof work", () => {
    const rich = { ...prover, perTransactionLimit: 5_000n, hitlThreshold: 5_000n, dailyLimit: 10_000n };
    expect(
      isConfidentialError(
        thrownBy(() => build(BALANCE + 1n, { state: rich })),
        "insufficient_confidential_balance",
      ),
    ).toBe(true);
  });
});

describe("agent transfer proofs made on the proof pool", () => {
  it("Given the pool, Then its limit proofs verify and are about the same statements as on one thread", async () => {
    const input = {
      keys: agent,
      availableCiphertext: agent.elgamal.pubkey().encryptU64(BALANCE).toBytes(),
      availableBalance: BALANCE,
      amount: 40n,
      recipientPubkey: recipient.elgamalPubkey,
      auditorPubkey: new Uint8Array(32),
      prover,
    };
    const proofs = await buildAgentTransferProofsConcurrently(input);
    const { limits } = proofs;
    // X_tx is about the validity proof this very transfer carries.
    const amountCiphertext = transferAmountCiphertext(
      parseValidityProofContext(proofs.transfer.ciphertextValidityProof),
    );
    expect(limits.transactionCiphertext).toEqual(transactionLimitCiphertext(50n, amountCiphertext));
    for (const equality of [limits.transactionEqualityProof, limits.dailyEqualityProof]) {
      expect(() => CiphertextCommitmentEqualityProofData.fromBytes(equality).verify()).not.toThrow();
    }
    expect(limits.rangeProofKind).toBe("u64");
    expect(() => BatchedRangeProofU64Data.fromBytes(limits.rangeProof).verify()).not.toThrow();
    // A tampered statement does not verify: the check above can fail.
    const tampered = limits.rangeProof.slice();
    tampered[300] = (tampered[300] ?? 0) ^ 1;
    expect(() => BatchedRangeProofU64Data.fromBytes(tampered).verify()).toThrow();
  });

  it("Given a limit the amount breaks, Then the concurrent builder refuses before any proof work", async () => {
    await expect(
      buildAgentTransferProofsConcurrently({
        keys: agent,
        availableCiphertext: agent.elgamal.pubkey().encryptU64(BALANCE).toBytes(),
        availableBalance: BALANCE,
        amount: 101n,
        recipientPubkey: recipient.elgamalPubkey,
        auditorPubkey: new Uint8Array(32),
        prover,
        requestHold: true,
      }),
    ).rejects.toSatisfy(isPolicyLimitExceeded);
  });
});
