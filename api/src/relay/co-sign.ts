/**
 * The fee payer's signature added to a checked transaction: the only key the relay ever signs with,
 * over the exact message bytes the checks read, in the fee payer's slot (account 0). The fee payer
 * may be a key file or a signing program (core/config/signer-setting.ts): both sign transactions.
 */
import {
  getTransactionDecoder,
  getTransactionEncoder,
  type Transaction,
  type TransactionPartialSigner,
  type TransactionWithinSizeLimit,
  type TransactionWithLifetime,
} from "@solana/kit";

export async function coSignAsFeePayer(
  feePayer: TransactionPartialSigner,
  wire: Uint8Array,
): Promise<Uint8Array> {
  const transaction = getTransactionDecoder().decode(wire);
  // The relay's checks already bounded the size and read the lifetime; the signer only needs the bytes.
  const [dictionary] = await feePayer.signTransactions([
    transaction as Transaction & TransactionWithinSizeLimit & TransactionWithLifetime,
  ]);
  const signature = dictionary?.[feePayer.address];
  if (signature === undefined) throw new Error("the fee payer returned no signature");
  return new Uint8Array(
    getTransactionEncoder().encode({
      ...transaction,
      signatures: { ...transaction.signatures, [feePayer.address]: signature },
    }),
  );
}
