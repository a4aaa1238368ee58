/**
 * The fee payer's signature added to a checked transaction: the only key the relay ever signs with,
 * over the exact message bytes the checks read, in the fee payer's slot (account 0).
 */
import { getTransactionDecoder, getTransactionEncoder, type KeyPairSigner, signBytes } from "@solana/kit";

export async function coSignAsFeePayer(feePayer: KeyPairSigner, wire: Uint8Array): Promise<Uint8Array> {
  const transaction = getTransactionDecoder().decode(wire);
  const signature = await signBytes(feePayer.keyPair.privateKey, transaction.messageBytes);
  return new Uint8Array(
    getTransactionEncoder().encode({
      ...transaction,
      signatures: { ...transaction.signatures, [feePayer.address]: signature },
    }),
  );
}
