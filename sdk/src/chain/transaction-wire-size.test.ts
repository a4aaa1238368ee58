import {
  AccountRole,
  type Address,
  compileTransaction,
  createNoopSigner,
  getTransactionEncoder,
  type Instruction,
} from "@solana/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { transactionMessageOf } from "./sign-transaction";
import { transactionWireSize } from "./transaction-wire-size";

/** A few distinct addresses (repeats across instructions are what the count must get right). */
const ADDRESSES = [
  "11111111111111111111111111111111",
  "ZkE1Gama1Proof11111111111111111111111111111",
  "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
  "SysvarRent111111111111111111111111111111111",
  "ComputeBudget111111111111111111111111111111",
  "Vote111111111111111111111111111111111111111",
  "Stake11111111111111111111111111111111111111",
  "Config1111111111111111111111111111111111111",
] as Address[];
/** Programs are never the fee payer nor writable (kit refuses those messages): accounts and payers are the others. */
const PROGRAMS = ADDRESSES.slice(0, 4);
const PAYERS = ADDRESSES.slice(4);
const BLOCKHASH = "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N";

const role = fc.constantFrom(
  AccountRole.READONLY,
  AccountRole.WRITABLE,
  AccountRole.READONLY_SIGNER,
  AccountRole.WRITABLE_SIGNER,
);
const instruction: fc.Arbitrary<Instruction> = fc.record({
  programAddress: fc.constantFrom(...PROGRAMS),
  accounts: fc.array(
    fc.record({ address: fc.constantFrom(...PAYERS), role }).map(({ address, role }) =>
      // A signer meta carries its signer, as instructions built by the clients do.
      role === AccountRole.READONLY_SIGNER || role === AccountRole.WRITABLE_SIGNER
        ? { address, role, signer: createNoopSigner(address) }
        : { address, role },
    ),
    { maxLength: 6 },
  ),
  data: fc.uint8Array({ maxLength: 300 }),
});

describe("transactionWireSize", () => {
  it("is the size kit's compiled and encoded transaction has, for any instructions", () => {
    fc.assert(
      fc.property(
        fc.array(instruction, { maxLength: 5 }),
        fc.constantFrom(...PAYERS),
        (instructions, payer) => {
          const input = { feePayer: createNoopSigner(payer), instructions, blockhash: BLOCKHASH };
          const compiled = getTransactionEncoder().getSizeFromValue(
            compileTransaction(transactionMessageOf(input)),
          );
          expect(transactionWireSize(input)).toBe(compiled);
        },
      ),
      { numRuns: 300 },
    );
  });
});
