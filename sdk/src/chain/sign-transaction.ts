/**
 * Signs instructions into one wire-format transaction the way any client does (kit: v0 message,
 * fee payer first, every signer the instructions carry plus any extra ones), for submission through
 * the chain port. The one place the SDK and its suites turn instructions into bytes; the cluster's
 * own setup transactions use `buildLocalTransaction`, which signs synchronously with labelled keys.
 */
import {
  addSignersToTransactionMessage,
  appendTransactionMessageInstructions,
  type Blockhash,
  createTransactionMessage,
  getSignatureFromTransaction,
  getTransactionEncoder,
  type Instruction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type TransactionSigner,
} from "@solana/kit";

/** Solana's packet limit: the most bytes one transaction may have on the wire. */
export const PACKET_DATA_SIZE = 1232;
const TRANSACTION_ENCODER = getTransactionEncoder();

export interface SignTransactionInput {
  readonly feePayer: TransactionSigner;
  readonly instructions: readonly Instruction[];
  readonly blockhash: string;
  /** Only kit's confirmation helpers read it; the wire bytes do not carry it. Default 0. */
  readonly lastValidBlockHeight?: bigint;
  /** Signers besides those the instructions' account metas carry. */
  readonly signers?: readonly TransactionSigner[];
}

/** The signed transaction's id (its first signature, base58) and its wire bytes. */
export async function signTransactionToWire(
  input: SignTransactionInput,
): Promise<{ readonly signature: string; readonly wire: Uint8Array }> {
  const signed = await signTransactionMessageWithSigners(transactionMessageOf(input));
  return {
    signature: getSignatureFromTransaction(signed),
    wire: new Uint8Array(TRANSACTION_ENCODER.encode(signed)),
  };
}

/**
 * The same transaction signed by every signer that can sign here, for someone else to complete:
 * a `NoopSigner` (kit's `createNoopSigner`, e.g. a relay's fee payer) leaves its signature slot
 * empty (64 zero bytes on the wire). The transaction's id is its fee payer's signature, so it is
 * not known until that signer has signed.
 */
export async function partiallySignTransactionToWire(
  input: SignTransactionInput,
): Promise<{ readonly wire: Uint8Array }> {
  const signed = await partiallySignTransactionMessageWithSigners(transactionMessageOf(input));
  return { wire: new Uint8Array(TRANSACTION_ENCODER.encode(signed)) };
}

/** The v0 message `signTransactionToWire` signs (fee payer, lifetime, instructions, extra signers). */
export function transactionMessageOf(input: SignTransactionInput) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(input.feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: input.blockhash as Blockhash, lastValidBlockHeight: input.lastValidBlockHeight ?? 0n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(input.instructions, m),
    (m) => addSignersToTransactionMessage([...(input.signers ?? [])], m),
  );
}
