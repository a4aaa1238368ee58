/**
 * A transaction the reserve's tests read but never send: `instructions` in a v0 message paid by
 * `payer`, under a placeholder blockhash, compiled (signatures left empty).
 */
import {
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createTransactionMessage,
  type Instruction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type TransactionSigner,
} from "@solana/kit";

const PLACEHOLDER_BLOCKHASH = "11111111111111111111111111111111" as Blockhash;

/** `instructions` compiled into a v0 transaction `payer` pays for, never to be sent. */
export function unsentTransaction(payer: TransactionSigner, instructions: readonly Instruction[]) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: PLACEHOLDER_BLOCKHASH, lastValidBlockHeight: 0n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
    (m) => compileTransaction(m),
  );
}
