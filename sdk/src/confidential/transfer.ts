/**
 * Confidential transfer between two configured accounts (no transfer fee): proofs built locally
 * (transfer-proofs.ts), verified into context accounts, consumed by Token-2022's
 * ConfidentialTransfer, contexts closed in the same transaction (proof-contexts.ts). The recipient
 * is credited in its pending balance and applies it later.
 *
 * Runs in the sender account's queue (account-queue.ts): the proofs are made against the
 * available balance read inside the queue, so two transfers from one account never race.
 *
 * With `record`, the final transaction also carries the agent-policy program's `transfer_record`
 * (transfer-record.ts) right after the Transfer: the record, its receipt and its encrypted memo land
 * atomically with the funds, and a retry of the transfer id fails as a whole.
 */
import { address, type TransactionSigner } from "@solana/kit";
import { getConfidentialTransferInstruction } from "@solana-program/token-2022";
import {
  BATCHED_GROUPED_CIPHERTEXT_3_HANDLES_VALIDITY_CONTEXT_ACCOUNT_SIZE,
  BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE,
  CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
  ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import { batchingAccountReads } from "../chain/batched-account-reads";
import type { ChainPort } from "../chain/chain-port";
import { runExclusive } from "./account-queue";
import { readinessOf } from "./account-setup";
import { assertAmount } from "./amounts";
import { availableBalance } from "./balance";
import { ConfidentialError, type ConfidentialStep } from "./errors";
import type { ConfidentialKeyset } from "./keys";
import { buildTransferProofsOnPool } from "./pooled-transfer-proofs";
import { runWithProofContexts } from "./proof-contexts";
import {
  findTokenAccount,
  readConfidentialMint,
  readConfidentialState,
  readTokenAccount,
} from "./token-account";
import {
  asAlreadyRecorded,
  buildTransferRecord,
  checkTransferRecord,
  type TransferRecordRequest,
} from "./transfer-record";

export interface ConfidentialTransferInput {
  /** The sending wallet (owner of the source token account). */
  readonly owner: TransactionSigner;
  readonly keys: ConfidentialKeyset;
  readonly mint: string;
  /** The receiving wallet; its associated token account must be confidential-ready. */
  readonly recipient: string;
  readonly amount: bigint;
  /** Pays fees and the context accounts' rent (returned at the end); defaults to the owner. */
  readonly payer?: TransactionSigner;
  /**
   * Records the transfer on the agent-policy program (confidential = true) in the final
   * transaction, with the memo encrypted to the owner's and the recipient's ElGamal keys. The
   * payer also pays the receipt's rent (112 bytes; `receipt_close` returns it to the payer).
   */
  readonly record?: TransferRecordRequest;
}

export interface ConfidentialTransferResult {
  readonly sourceTokenAccount: string;
  readonly destinationTokenAccount: string;
  /** Every transaction signature, in submission order; the last one moved the funds. */
  readonly signatures: readonly string[];
}

/** The steps of a confidential transfer, in order. */
export const TRANSFER_STEPS: readonly ConfidentialStep[] = [
  "equality_proof",
  "ciphertext_validity_proof",
  "range_proof",
  "transfer",
];

/**
 * Transfers `amount` confidentially. Throws `recipient_not_confidential_ready`,
 * `insufficient_confidential_balance`, `invalid_amount` before submitting anything (with a record
 * also `memo_too_long`, `invalid_transfer_record`, `account_key_mismatch` and
 * `transfer_already_recorded`), and `step_failed` (naming the step; nothing moved, contexts closed)
 * when a transaction fails — `transfer_already_recorded` with step `transfer` when the program
 * refused the record because the id was recorded meanwhile.
 */
export async function transferConfidential(
  chain: ChainPort,
  input: ConfidentialTransferInput,
): Promise<ConfidentialTransferResult> {
  assertAmount(input.amount);
  const record = input.record === undefined ? null : checkTransferRecord(input.record);
  const payer = input.payer ?? input.owner;
  const [source, destination] = await Promise.all([
    findTokenAccount(input.owner.address, input.mint),
    findTokenAccount(input.recipient, input.mint),
  ]);
  return runExclusive(chain, source, async () => {
    // Read at once, in one request; a bad mint is reported only after the account checks, as it
    // always was.
    const reads = batchingAccountReads(chain);
    const mintRead = readConfidentialMint(reads, input.mint);
    mintRead.catch(() => undefined);
    const [sender, recipientAccount] = await Promise.all([
      readConfidentialState(reads, source),
      readTokenAccount(reads, destination),
    ]);
    if (sender === null)
      throw new ConfidentialError("account_not_confidential_ready", `${source} is not configured`);
    const readiness = readinessOf(recipientAccount);
    const recipient = recipientAccount?.confidential ?? null;
    if (readiness !== "ready" || recipient === null) {
      throw new ConfidentialError("recipient_not_confidential_ready", `recipient account is ${readiness}`);
    }
    const recordInstruction =
      record === null
        ? null
        : await buildTransferRecord(chain, {
            record,
            sender: input.owner,
            payer,
            source,
            destination,
            mint: address(input.mint),
            confidential: true,
            senderKeys: input.keys,
            recipientElgamalPubkey: recipientKeyFor(record.recipientElgamalPubkey, recipient.elgamalPubkey),
          });
    const mint = await mintRead;
    const proofs = await buildTransferProofsOnPool({
      keys: input.keys,
      availableCiphertext: sender.availableBalance,
      availableBalance: availableBalance(sender, input.keys),
      amount: input.amount,
      recipientPubkey: recipient.elgamalPubkey,
      auditorPubkey: mint.auditorElgamalPubkey ?? new Uint8Array(32),
    });
    const run = runWithProofContexts({
      chain,
      payer,
      proofs: [
        {
          step: "equality_proof",
          instruction: ZkElGamalProofInstruction.VerifyCiphertextCommitmentEquality,
          accountSize: CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
          data: proofs.equalityProof,
        },
        {
          step: "ciphertext_validity_proof",
          instruction: ZkElGamalProofInstruction.VerifyBatchedGroupedCiphertext3HandlesValidity,
          accountSize: BATCHED_GROUPED_CIPHERTEXT_3_HANDLES_VALIDITY_CONTEXT_ACCOUNT_SIZE,
          data: proofs.ciphertextValidityProof,
        },
        {
          step: "range_proof",
          instruction: ZkElGamalProofInstruction.VerifyBatchedRangeProofU128,
          accountSize: BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE,
          data: proofs.rangeProof,
        },
      ],
      finalStep: "transfer",
      finalInstructions: (contexts) => [
        getConfidentialTransferInstruction({
          sourceToken: source,
          mint: address(input.mint),
          destinationToken: destination,
          equalityRecord: contexts.get("equality_proof"),
          ciphertextValidityRecord: contexts.get("ciphertext_validity_proof"),
          rangeRecord: contexts.get("range_proof"),
          authority: input.owner,
          newSourceDecryptableAvailableBalance: proofs.newDecryptableAvailableBalance,
          transferAmountAuditorCiphertextLo: proofs.auditorCiphertextLo,
          transferAmountAuditorCiphertextHi: proofs.auditorCiphertextHi,
          // Offsets 0: the proofs are read from the context accounts, not from this transaction.
          equalityProofInstructionOffset: 0,
          ciphertextValidityProofInstructionOffset: 0,
          rangeProofInstructionOffset: 0,
        }),
        // Index 1 of the final transaction (asAlreadyRecorded below relies on it).
        ...(recordInstruction === null ? [] : [recordInstruction]),
      ],
    });
    const { signatures } = await run.catch((error: unknown) => {
      throw asAlreadyRecorded(chain, error, 1) ?? error;
    });
    return { sourceTokenAccount: source, destinationTokenAccount: destination, signatures };
  });
}

/** The key a record's memo is encrypted to: the recipient account's, which a given key must equal. */
function recipientKeyFor(given: Uint8Array | undefined, onChain: Uint8Array): Uint8Array {
  if (
    given !== undefined &&
    !(given.length === onChain.length && given.every((byte, i) => byte === onChain[i]))
  ) {
    throw new ConfidentialError(
      "account_key_mismatch",
      "the recipient's ElGamal key given for the memo is not its confidential account's key",
    );
  }
  return onChain;
}
