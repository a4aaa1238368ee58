/**
 * The public (non-confidential) path: a Token-2022 TransferChecked between the owners' associated
 * accounts. The amount is visible on-chain; used where confidentiality is not wanted or the
 * recipient cannot receive confidentially. The recipient's account is created if missing (its rent
 * from `payer`), unless `openRecipientAccount` is false: then a recipient without one makes the
 * transaction fail with nothing moved. With `fee`, the owner also pays a fee in the same mint
 * to another token account in the same transaction (a service's account-opening fee): both land or
 * neither.
 *
 * With `record`, the same transaction also carries the agent-policy program's `transfer_record`
 * (confidential = false, transfer-record.ts): record and funds land together or not at all.
 */
import { address, type TransactionSigner } from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import type { ChainPort } from "../chain/chain-port";
import { assertAmount, MAX_U64 } from "./amounts";
import type { ConfidentialKeyset } from "./keys";
import { findTokenAccount, readConfidentialMint, readConfidentialState } from "./token-account";
import { signTransaction, submit } from "./transactions";
import {
  asAlreadyRecorded,
  buildTransferRecord,
  checkTransferRecord,
  type TransferRecordRequest,
} from "./transfer-record";

export interface PublicTransferInput {
  readonly owner: TransactionSigner;
  readonly mint: string;
  /** The recipient wallet (its associated token account receives). */
  readonly recipient: string;
  readonly amount: bigint;
  readonly payer?: TransactionSigner;
  /**
   * Records the transfer on the agent-policy program (confidential = false) in the same
   * transaction. A memo is encrypted to `keys` and the recipient's ElGamal key, which defaults to
   * its confidential account's key when it has one.
   */
  readonly record?: TransferRecordRequest;
  /** The owner's confidential keys: needed only to encrypt a record's memo. */
  readonly keys?: ConfidentialKeyset;
  /**
   * Open the recipient's associated account when it has none (CreateIdempotent, rent from
   * `payer`). Default true. A payer that must not fund accounts their owners can close for the rent
   * passes false for recipients whose account exists: if it is closed before the transaction
   * lands, the transfer fails instead of reopening it.
   */
  readonly openRecipientAccount?: boolean;
  /** A fee the owner pays in the same transaction: base units of `mint`, to the token account `destination`. */
  readonly fee?: { readonly amount: bigint; readonly destination: string };
}

/**
 * Transfers `amount` of the owner's public balance to the recipient's public balance. With a
 * record: `memo_too_long`, `invalid_transfer_record`, `transfer_already_recorded` before sending;
 * `transfer_already_recorded` (step `public_transfer`) when the program refused the record.
 */
export async function transferPublic(
  chain: ChainPort,
  input: PublicTransferInput,
): Promise<{ readonly signature: string }> {
  assertAmount(input.amount, MAX_U64);
  if (input.fee !== undefined) assertAmount(input.fee.amount, MAX_U64);
  const record = input.record === undefined ? null : checkTransferRecord(input.record);
  const payer = input.payer ?? input.owner;
  const mint = address(input.mint);
  const [source, destination] = await Promise.all([
    findTokenAccount(input.owner.address, input.mint),
    findTokenAccount(input.recipient, input.mint),
  ]);
  const needsRecipientKey =
    record !== null && record.memo !== null && record.recipientElgamalPubkey === undefined;
  const [{ decimals }, blockhash, recipientState] = await Promise.all([
    readConfidentialMint(chain, input.mint),
    chain.getLatestBlockhash(),
    needsRecipientKey ? readConfidentialState(chain, destination) : null,
  ]);
  const recordInstructions =
    record === null
      ? []
      : [
          await buildTransferRecord(chain, {
            record,
            sender: input.owner,
            payer,
            source,
            destination,
            mint,
            confidential: false,
            senderKeys: input.keys,
            recipientElgamalPubkey:
              record.memo === null
                ? undefined
                : (record.recipientElgamalPubkey ?? recipientState?.elgamalPubkey),
          }),
        ];
  const opening =
    input.openRecipientAccount === false
      ? []
      : [
          getCreateAssociatedTokenIdempotentInstruction({
            payer,
            ata: destination,
            owner: address(input.recipient),
            mint,
            tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
          }),
        ];
  const fee =
    input.fee === undefined
      ? []
      : [
          getTransferCheckedInstruction({
            source,
            mint,
            destination: address(input.fee.destination),
            authority: input.owner,
            amount: input.fee.amount,
            decimals,
          }),
        ];
  const transaction = await signTransaction({
    step: "public_transfer",
    feePayer: payer,
    blockhash,
    instructions: [
      ...opening,
      getTransferCheckedInstruction({
        source,
        mint,
        destination,
        authority: input.owner,
        amount: input.amount,
        decimals,
      }),
      ...recordInstructions,
      ...fee,
    ],
  });
  // `transfer_record` follows the opening (when there is one) and the TransferChecked.
  const recordIndex = opening.length + 1;
  try {
    return { signature: await submit(chain, transaction) };
  } catch (error) {
    throw asAlreadyRecorded(chain, error, recordIndex) ?? error;
  }
}
