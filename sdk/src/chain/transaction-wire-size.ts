/**
 * The wire size of a v0 transaction from its parts, without compiling it: every account the
 * instructions name (and their programs, and the fee payer) once, 32 bytes each; every signer's
 * 64-byte slot; each instruction's indices and data; the header and blockhash. Exactly what kit's
 * compile and encode produce for a message without address lookup tables (the property test beside
 * it checks that), at a fraction of the cost: a confidential transfer's plan sizes several
 * candidate transactions. A message with lookup tables or extra signers is compiled instead.
 */
import {
  compileTransaction,
  getTransactionEncoder,
  type Instruction,
  isSignerRole,
  type TransactionSigner,
} from "@solana/kit";
import { transactionMessageOf } from "./sign-transaction";

export interface WireSizeInput {
  readonly feePayer: TransactionSigner;
  readonly instructions: readonly Instruction[];
  readonly blockhash: string;
  readonly signers?: readonly TransactionSigner[];
}

const SIGNATURE_BYTES = 64;
const ADDRESS_BYTES = 32;
/** Version prefix (1) and header (3). */
const MESSAGE_PREFIX_BYTES = 4;
const TRANSACTION_ENCODER = getTransactionEncoder();

export function transactionWireSize(input: WireSizeInput): number {
  if ((input.signers ?? []).length > 0) return compiledSize(input);
  const accounts = new Set<string>([input.feePayer.address]);
  const signers = new Set<string>([input.feePayer.address]);
  let instructionBytes = 0;
  for (const instruction of input.instructions) {
    accounts.add(instruction.programAddress);
    const metas = instruction.accounts ?? [];
    for (const meta of metas) {
      if ("lookupTableAddress" in meta) return compiledSize(input);
      accounts.add(meta.address);
      if (isSignerRole(meta.role)) signers.add(meta.address);
    }
    const dataLength = instruction.data?.length ?? 0;
    instructionBytes +=
      1 + compactLength(metas.length) + metas.length + compactLength(dataLength) + dataLength;
  }
  const message =
    MESSAGE_PREFIX_BYTES +
    compactLength(accounts.size) +
    ADDRESS_BYTES * accounts.size +
    ADDRESS_BYTES +
    compactLength(input.instructions.length) +
    instructionBytes +
    compactLength(0);
  return compactLength(signers.size) + SIGNATURE_BYTES * signers.size + message;
}

/** Solana's compact-u16 length prefix: 7 bits a byte. */
function compactLength(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : 3;
}

function compiledSize(input: WireSizeInput): number {
  return TRANSACTION_ENCODER.getSizeFromValue(compileTransaction(transactionMessageOf(input)));
}
