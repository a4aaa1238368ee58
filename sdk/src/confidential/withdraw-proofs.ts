/**
 * The two proofs of a withdraw, built locally from the holder's keys: the new available ciphertext
 * (available - amount*G, exactly as Token-2022 computes it) and a fresh Pedersen commitment hold the
 * same value (equality), and that value is in [0, 2^64) (U64 range). Pure computation; shared by
 * the wallet's withdraw and the agent's (agent-confidential/agent-withdraw.ts).
 */
import {
  BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE,
  CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
  ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import { assertAmount, BALANCE_BITS, MAX_U64 } from "./amounts";
import { subtractAmount } from "./ciphertext-arithmetic";
import { ConfidentialError } from "./errors";
import type { ConfidentialKeyset } from "./keys";
import type { ContextProof } from "./proof-contexts";
import {
  BatchedRangeProofU64Data,
  CiphertextCommitmentEqualityProofData,
  ElGamalCiphertext,
  PedersenCommitment,
  PedersenOpening,
} from "./zk-sdk";

export interface WithdrawProofInput {
  readonly keys: ConfidentialKeyset;
  /** The on-chain available-balance ciphertext the proofs are made against. */
  readonly availableCiphertext: Uint8Array;
  /** What `availableCiphertext` encrypts. */
  readonly availableBalance: bigint;
  readonly amount: bigint;
}

export interface WithdrawProofs {
  readonly equalityProof: Uint8Array;
  readonly rangeProof: Uint8Array;
  /** The AE copy of the balance after the withdraw. */
  readonly newDecryptableAvailableBalance: Uint8Array;
}

/** Builds a withdraw's proofs; throws `invalid_amount` / `insufficient_confidential_balance` first. */
export function buildWithdrawProofs(input: WithdrawProofInput): WithdrawProofs {
  assertAmount(input.amount, MAX_U64);
  const newBalance = input.availableBalance - input.amount;
  if (newBalance < 0n) {
    throw new ConfidentialError(
      "insufficient_confidential_balance",
      "the available balance is smaller than the amount",
    );
  }
  const newBalanceCiphertext = ElGamalCiphertext.fromBytes(
    subtractAmount(input.availableCiphertext, input.amount),
  );
  if (newBalanceCiphertext === undefined) throw new Error("invalid available-balance ciphertext");
  const opening = new PedersenOpening();
  const commitment = PedersenCommitment.from(newBalance, opening);
  // The equality proof first: the range proof consumes the commitment and opening (wasm-bindgen arrays).
  const equalityProof = new CiphertextCommitmentEqualityProofData(
    input.keys.elgamal,
    newBalanceCiphertext,
    commitment,
    opening,
    newBalance,
  ).toBytes();
  const rangeProof = new BatchedRangeProofU64Data(
    [commitment],
    new BigUint64Array([newBalance]),
    Uint8Array.from([BALANCE_BITS]),
    [opening],
  ).toBytes();
  return {
    equalityProof,
    rangeProof,
    newDecryptableAvailableBalance: input.keys.ae.encrypt(newBalance).toBytes(),
  };
}

/** The two context accounts a withdraw's proofs are verified into (equality, then U64 range). */
export function withdrawContextProofs(proofs: WithdrawProofs): ContextProof[] {
  return [
    {
      step: "equality_proof",
      instruction: ZkElGamalProofInstruction.VerifyCiphertextCommitmentEquality,
      accountSize: CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
      data: proofs.equalityProof,
    },
    {
      step: "range_proof",
      instruction: ZkElGamalProofInstruction.VerifyBatchedRangeProofU64,
      accountSize: BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE,
      data: proofs.rangeProof,
    },
  ];
}
