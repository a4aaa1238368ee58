/**
 * Closing ZK ElGamal proof context accounts to get their rent back — after a failed operation
 * (proof-contexts.ts) or later, for accounts an operation reported `orphaned`.
 */
import { type Address, address, type Instruction, type TransactionSigner } from "@solana/kit";
import {
  BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE,
  closeContextStateProof,
  getVerifyProofInstruction,
  ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
  ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import type { ChainPort } from "../chain/chain-port";
import { signTransaction, submit } from "./transactions";
import { BatchedRangeProofU64Data, PedersenCommitment, PedersenOpening } from "./zk-sdk";

/** A proof to verify into an unverified context before closing it. */
export interface ContextInitializer {
  readonly instruction: ZkElGamalProofInstruction;
  readonly data: Uint8Array;
}

/**
 * Closes proof context accounts whose authority is `payer`, returning their rent to it: verified
 * ones in one CloseContextState transaction; each allocated-but-unverified one (no authority yet,
 * so it cannot be closed as it is) by verifying a proof into it and closing it in one transaction —
 * its own proof when known, else a fresh U64 range proof of 0 when it has a range context's size.
 * Use it for accounts reported `orphaned`. Returns the addresses that are still open.
 */
export async function closeProofContexts(
  chain: ChainPort,
  input: { readonly payer: TransactionSigner; readonly addresses: readonly string[] },
): Promise<string[]> {
  await closeContexts(
    chain,
    input.payer,
    input.addresses.map((address) => ({ address, initializeWith: null })),
  );
  const accounts = await chain.getMultipleAccounts(input.addresses);
  return input.addresses.filter((_, index) => accounts[index] !== null);
}

/**
 * Closes `targets` (see closeProofContexts). Verified contexts are closed with `closeVerified`
 * (default: CloseContextState signed by the payer, their authority); unverified ones are verified
 * with the payer as authority first, whoever was meant to own them.
 */
export async function closeContexts(
  chain: ChainPort,
  payer: TransactionSigner,
  targets: readonly {
    readonly address: string;
    readonly initializeWith: ContextInitializer | null;
  }[],
  closeVerified: (contexts: readonly Address[]) => Promise<Instruction[]> = async (contexts) =>
    contexts.map((contextAddress) => closeAt(contextAddress, payer)),
): Promise<void> {
  const [blockhash, accounts] = await Promise.all([
    chain.getLatestBlockhash(),
    chain.getMultipleAccounts(targets.map((target) => target.address)),
  ]);
  const closeable: Address[] = [];
  const attempts: Promise<unknown>[] = [];
  for (const [index, target] of targets.entries()) {
    const account = accounts[index] ?? null;
    if (account === null || account.owner !== ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS) continue;
    const contextAddress = address(target.address);
    // A verified context starts with its 32-byte authority; an unverified one is all zeroes.
    if (account.data.subarray(0, 32).some((byte) => byte !== 0)) {
      closeable.push(contextAddress);
      continue;
    }
    const proof = target.initializeWith ?? zeroRangeProof(account.data.length);
    if (proof === null) continue;
    const verify = getVerifyProofInstruction({
      discriminator: proof.instruction,
      contextState: contextAddress,
      contextStateAuthority: payer.address,
      proofData: proof.data,
    });
    attempts.push(
      signTransaction({
        step: "range_proof",
        feePayer: payer,
        blockhash,
        instructions: [verify, closeAt(contextAddress, payer)],
      }).then((transaction) => submit(chain, transaction)),
    );
  }
  if (closeable.length > 0) {
    attempts.push(
      closeVerified(closeable)
        .then((instructions) =>
          signTransaction({ step: "close_contexts", feePayer: payer, blockhash, instructions }),
        )
        .then((transaction) => submit(chain, transaction)),
    );
  }
  await Promise.allSettled(attempts);
}

export function closeAt(contextState: Address, payer: TransactionSigner): Instruction {
  return closeContextStateProof({ contextState, authority: payer, destination: payer.address });
}

/** A valid range proof (0 < 2^64) for an account of a range context's size, else null. */
function zeroRangeProof(accountSize: number): ContextInitializer | null {
  if (accountSize !== BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE) return null;
  const opening = new PedersenOpening();
  const data = new BatchedRangeProofU64Data(
    [PedersenCommitment.from(0n, opening)],
    new BigUint64Array([0n]),
    Uint8Array.from([64]),
    [opening],
  ).toBytes();
  return { instruction: ZkElGamalProofInstruction.VerifyBatchedRangeProofU64, data };
}
