/**
 * Builds and signs the cluster's own transactions (faucet transfers, program deploy, mint setup)
 * synchronously, with kit's message compiler and the labelled keys' node:crypto signer. They go
 * through the same submission path as any client's transaction, so they have real signatures, pay
 * real fees and appear in history.
 */

import type { LocalnetKey } from "@cpay/sdk/chain";
import {
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransactionMessage,
  createTransactionMessage,
  getCompiledTransactionMessageEncoder,
  getTransactionEncoder,
  type Instruction,
  pipe,
  type SignatureBytes,
  type SignaturesMap,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type TransactionMessageBytes,
} from "@solana/kit";
import type { TransactionRecord } from "./cluster-port";

/** A transaction the cluster builds and signs itself; the blockhash is filled in when it is sent. */
export interface LocalTransactionRequest {
  readonly feePayer: LocalnetKey;
  /** Every other key the instructions require as signer. */
  readonly signers?: readonly LocalnetKey[];
  readonly instructions: readonly Instruction[];
}

/** What the cluster's setup steps and helpers need from it: rent, and a way to land a transaction. */
export interface LocalTarget {
  minimumBalanceForRentExemption(dataLength: number): bigint;
  /**
   * Builds `request` on the latest blockhash, signs and lands it after a preflight simulation, and
   * returns its record. Throws (nothing lands) if it would fail.
   */
  submit(request: LocalTransactionRequest, what: string): TransactionRecord;
}

export interface LocalTransactionInput extends LocalTransactionRequest {
  readonly blockhash: string;
}

/** A legacy transaction, fully signed, in wire format. Throws if a required signer is missing. */
export function buildLocalTransaction(input: LocalTransactionInput): Uint8Array {
  const message = pipe(
    createTransactionMessage({ version: "legacy" }),
    (m) => setTransactionMessageFeePayer(input.feePayer.address, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        // lastValidBlockHeight only matters to kit's confirmation helpers, not to the wire bytes.
        { blockhash: input.blockhash as Blockhash, lastValidBlockHeight: 0n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(input.instructions, m),
  );
  const compiled = compileTransactionMessage(message);
  const messageBytes = getCompiledTransactionMessageEncoder().encode(compiled) as TransactionMessageBytes;
  const keys = new Map<string, LocalnetKey>(
    [input.feePayer, ...(input.signers ?? [])].map((k) => [k.address, k]),
  );
  const signatures: SignaturesMap = {};
  for (const address of compiled.staticAccounts.slice(0, compiled.header.numSignerAccounts)) {
    const key = keys.get(address);
    if (key === undefined) throw new Error(`no localnet key to sign for ${address}`);
    signatures[address] = key.signBytes(Uint8Array.from(messageBytes)) as SignatureBytes;
  }
  return new Uint8Array(getTransactionEncoder().encode({ messageBytes, signatures }));
}
