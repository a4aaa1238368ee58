/**
 * Limit proofs a suite makes itself, not through the SDK's prover: what an attacker holding
 * `keypair` can prove for the three limit slots of an agent transfer of `amount` (executed now, not
 * held), given the amount's ciphertext A under the source key. Two CiphertextCommitmentEquality
 * proofs tie the program's own X_tx and X_day to fresh commitments Z, and one batched U64 range
 * proof covers [Z_tx, Z_day] — or [Z_day, Z_tx] with `rangeOrder: "daily-first"`, an order no
 * honest prover uses, so a suite can check that the program reads the commitments in order.
 */
import {
  dailyLimitCiphertext,
  limitValues,
  type ProverState,
  rangeBitLengths,
  transactionLimitCiphertext,
  transferBound,
} from "@cpay/sdk/agent-confidential";
import { zk } from "@cpay/sdk/confidential";
import { ZkElGamalProofInstruction } from "@solana-program/zk-elgamal-proof";
import type { ProofPayload } from "./proof-context";

/** The three proofs, keyed by the transfer's limit slot they are verified for. */
export interface OwnLimitProofs {
  readonly limitEqualityTransaction: ProofPayload;
  readonly limitEqualityDaily: ProofPayload;
  readonly limitRangeProof: ProofPayload;
}

export function proveLimitsOutsideSdk(input: {
  readonly keypair: zk.ElGamalKeypair;
  readonly amountCiphertext: Uint8Array;
  readonly amount: bigint;
  /** Today's prover state (the daily spend S and what it encrypts). */
  readonly prover: ProverState;
  readonly rangeOrder?: "transaction-first" | "daily-first";
}): OwnLimitProofs {
  const { keypair, amountCiphertext, amount, prover } = input;
  const { bound } = transferBound(prover, amount, false);
  const values = limitValues({ amount, bound, day: prover });
  const commit = (value: bigint) => {
    const opening = new zk.PedersenOpening();
    return { value, opening, commitment: zk.PedersenCommitment.from(value, opening) };
  };
  const transaction = commit(values.transaction);
  const daily = commit(values.daily);
  const equality = (ciphertext: Uint8Array, committed: ReturnType<typeof commit>): ProofPayload => {
    const parsed = zk.ElGamalCiphertext.fromBytes(ciphertext);
    if (parsed === undefined) throw new Error("not an ElGamal ciphertext");
    return {
      discriminator: ZkElGamalProofInstruction.VerifyCiphertextCommitmentEquality,
      proofData: new zk.CiphertextCommitmentEqualityProofData(
        keypair,
        parsed,
        committed.commitment,
        committed.opening,
        committed.value,
      ).toBytes(),
    };
  };
  // The range proof consumes the commitments and openings it is given: the equality proofs come first.
  const limitEqualityTransaction = equality(transactionLimitCiphertext(bound, amountCiphertext), transaction);
  const limitEqualityDaily = equality(dailyLimitCiphertext(prover, amountCiphertext), daily);
  const ordered = input.rangeOrder === "daily-first" ? [daily, transaction] : [transaction, daily];
  const [first, second] = ordered.map((committed) => committed.value) as [bigint, bigint];
  const limitRangeProof: ProofPayload = {
    discriminator: ZkElGamalProofInstruction.VerifyBatchedRangeProofU64,
    proofData: new zk.BatchedRangeProofU64Data(
      ordered.map((committed) => committed.commitment),
      new BigUint64Array([first, second]),
      Uint8Array.from(rangeBitLengths(first, second).bitLengths),
      ordered.map((committed) => committed.opening),
    ).toBytes(),
  };
  return { limitEqualityTransaction, limitEqualityDaily, limitRangeProof };
}
