/**
 * What a mint's auditor reads of a landed confidential transfer: the amount, decrypted with the
 * auditor's ElGamal secret from the Token-2022 Transfer instruction's auditor ciphertexts (lo, hi),
 * whether the instruction is top level (an owner's transfer) or a CPI (an agent's, through the
 * agent-policy program).
 */
import type { TransactionRecord } from "@cpay/sdk/chain";
import { zk } from "@cpay/sdk/confidential";
import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from "@solana/kit";
import {
  CONFIDENTIAL_TRANSFER_CONFIDENTIAL_TRANSFER_DISCRIMINATOR,
  CONFIDENTIAL_TRANSFER_DISCRIMINATOR,
  getConfidentialTransferInstructionDataDecoder,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";

/** Bits of the amount in the low ciphertext (Token-2022's split). */
const LO_BITS = 16n;

/** The amounts of every confidential transfer instruction in `record`, as the auditor decrypts them. */
export function auditorAmounts(record: TransactionRecord, auditor: InstanceType<typeof zk.ElGamalKeypair>) {
  const transaction = getTransactionDecoder().decode(record.wire);
  const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  if (!("instructions" in message)) throw new Error(`unexpected message version ${message.version}`);
  const keys = [
    ...record.accountKeys,
    ...record.loadedAddresses.writable,
    ...record.loadedAddresses.readonly,
  ];
  const instructions = [
    ...message.instructions.map((instruction) => ({
      programIndex: instruction.programAddressIndex,
      data: instruction.data ?? new Uint8Array(),
    })),
    ...record.innerInstructions.flatMap((group) =>
      group.instructions.map((instruction) => ({
        programIndex: instruction.programIdIndex,
        data: instruction.data,
      })),
    ),
  ];
  const secret = auditor.secret();
  return instructions
    .filter(
      ({ programIndex, data }) =>
        keys[programIndex] === TOKEN_2022_PROGRAM_ADDRESS &&
        data[0] === CONFIDENTIAL_TRANSFER_DISCRIMINATOR &&
        data[1] === CONFIDENTIAL_TRANSFER_CONFIDENTIAL_TRANSFER_DISCRIMINATOR,
    )
    .map(({ data }) => {
      const decoded = getConfidentialTransferInstructionDataDecoder().decode(data);
      const part = (bytes: ArrayLike<number>): bigint => {
        const ciphertext = zk.ElGamalCiphertext.fromBytes(Uint8Array.from(bytes));
        if (ciphertext === undefined) throw new Error("an auditor ciphertext is not an ElGamal ciphertext");
        // undefined at run time when the ciphertext is not to this key (or out of decryptable range).
        const amount: bigint | undefined = secret.decrypt(ciphertext);
        if (typeof amount !== "bigint")
          throw new Error("an auditor ciphertext does not decrypt with this key");
        return amount;
      };
      return (
        part(decoded.transferAmountAuditorCiphertextLo) +
        (part(decoded.transferAmountAuditorCiphertextHi) << LO_BITS)
      );
    });
}
