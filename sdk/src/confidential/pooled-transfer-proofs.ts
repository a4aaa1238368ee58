/**
 * A confidential transfer's proofs made on the proof pool (proof-pool.ts), so this thread's event
 * loop keeps turning while they are made and concurrent transfers use every core. Same proofs as
 * `buildTransferProofs` (transfer-proofs.ts); the AE copy of the new balance (microseconds) is
 * made here, so only the ElGamal secret goes to the worker.
 */
import { type ProofTask, proofTask, runProofTask } from "./proof-pool";
import type { TransferProofTaskInput, TransferProofTaskPartial } from "./transfer-proof-task";
import {
  type TransferProofData,
  type TransferProofInput,
  type TransferProofs,
  transferNewBalance,
} from "./transfer-proofs";

const TRANSFER_PROOF_TASK: ProofTask<TransferProofTaskInput, TransferProofData, TransferProofTaskPartial> =
  proofTask(new URL("./transfer-proof-task.ts", import.meta.url));

/**
 * Starts the transfer's proofs on a pool worker; `onValidityContext` gets the amount's encryption
 * (the validity proof context) as soon as the worker has made it, before the proofs. Throws
 * `invalid_amount` / `insufficient_confidential_balance` synchronously, before any proof work.
 */
export function startTransferProofsOnPool(
  input: TransferProofInput,
  onValidityContext?: (validityContext: Uint8Array) => void,
): Promise<TransferProofs> {
  const newBalance = transferNewBalance(input);
  const { keys } = input;
  // Named fields only: a caller's wider input (an agent's prover state) stays on this thread.
  const task: TransferProofTaskInput = {
    elgamalSecret: keys.elgamal.secret().toBytes(),
    availableCiphertext: input.availableCiphertext,
    availableBalance: input.availableBalance,
    amount: input.amount,
    recipientPubkey: input.recipientPubkey,
    auditorPubkey: input.auditorPubkey,
  };
  const proofs = runProofTask(
    TRANSFER_PROOF_TASK,
    task,
    onValidityContext === undefined ? undefined : (partial) => onValidityContext(partial.validityContext),
  );
  const newDecryptableAvailableBalance = keys.ae.encrypt(newBalance).toBytes();
  return proofs.then((data) => ({ ...data, newDecryptableAvailableBalance }));
}

/** The transfer's proofs, made on the proof pool; rejects as `buildTransferProofs` throws. */
export async function buildTransferProofsOnPool(input: TransferProofInput): Promise<TransferProofs> {
  return startTransferProofsOnPool(input);
}
