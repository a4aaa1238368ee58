/**
 * Proof-pool task (runs on a worker, proof-worker.ts): one confidential transfer's proofs
 * (transfer-proofs.ts) from the sender's ElGamal secret. The amount is encrypted here, since the
 * openings the range proof shares with the equality and validity proofs cannot leave this thread;
 * the validity context goes back first (`partial`), so the agent path can start its limit proofs
 * on another worker while this one proves.
 */
import {
  encryptTransferAmount,
  proveTransfer,
  type TransferProofData,
  type TransferStatementInput,
} from "./transfer-proofs";
import { ElGamalKeypair, ElGamalSecretKey } from "./zk-sdk";

export interface TransferProofTaskInput extends TransferStatementInput {
  /** The sender's ElGamal secret key (32 bytes). */
  readonly elgamalSecret: Uint8Array;
}

/** Sent ahead of the proofs: the ciphertext-validity proof context of the amount's encryption. */
export interface TransferProofTaskPartial {
  readonly validityContext: Uint8Array;
}

export function runTask(
  input: TransferProofTaskInput,
  partial: (value: TransferProofTaskPartial) => void,
): TransferProofData {
  const elgamal = ElGamalKeypair.fromSecretKey(ElGamalSecretKey.fromBytes(input.elgamalSecret));
  const encryption = encryptTransferAmount({ ...input, keys: { elgamal } });
  partial({ validityContext: encryption.validityContext });
  return proveTransfer(elgamal, input, encryption);
}
