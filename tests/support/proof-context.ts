/**
 * Proof contexts made the way an attacker can make them: genuine proofs verified by the ZK ElGamal
 * Proof program into accounts the attacker creates, under the authority it names (e.g. the agent
 * PDA); and the instructions of landed transactions, read back from their wire bytes, so a suite
 * can resubmit or re-verify exactly what a client sent.
 */
import {
  type Address,
  decompileTransactionMessage,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Instruction,
  type KeyPairSigner,
} from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  BATCHED_GROUPED_CIPHERTEXT_3_HANDLES_VALIDITY_CONTEXT_ACCOUNT_SIZE,
  BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE,
  CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
  getVerifyProofInstruction,
  PUBKEY_VALIDITY_CONTEXT_ACCOUNT_SIZE,
  ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
  ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import { expect } from "vitest";
import type { PolicyWorld } from "./policy-world";

/** The proof kinds the suites verify themselves, with their context sizes. */
const CONTEXT_SIZES = new Map<number, number>([
  [
    ZkElGamalProofInstruction.VerifyCiphertextCommitmentEquality,
    CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
  ],
  [ZkElGamalProofInstruction.VerifyBatchedRangeProofU64, BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE],
  [ZkElGamalProofInstruction.VerifyBatchedRangeProofU128, BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE],
  [
    ZkElGamalProofInstruction.VerifyBatchedGroupedCiphertext3HandlesValidity,
    BATCHED_GROUPED_CIPHERTEXT_3_HANDLES_VALIDITY_CONTEXT_ACCOUNT_SIZE,
  ],
  [ZkElGamalProofInstruction.VerifyPubkeyValidity, PUBKEY_VALIDITY_CONTEXT_ACCOUNT_SIZE],
]);

/** One Verify* instruction's payload: its discriminator and proof data. */
export interface ProofPayload {
  readonly discriminator: ZkElGamalProofInstruction;
  readonly proofData: Uint8Array;
}

/**
 * Creates `account` for the ZK program and verifies `proof` into it with `authority` as the
 * context's authority (the fee payer pays); fails the test when the ZK program refuses the proof.
 */
export async function verifyContext(
  world: PolicyWorld,
  input: { readonly account: KeyPairSigner; readonly proof: ProofPayload; readonly authority: Address },
): Promise<void> {
  const size = CONTEXT_SIZES.get(input.proof.discriminator);
  if (size === undefined) throw new Error(`no context size known for proof ${input.proof.discriminator}`);
  const created = await world.send(
    [
      getCreateAccountInstruction({
        payer: world.feePayer,
        newAccount: input.account,
        lamports: world.cluster.minimumBalanceForRentExemption(size),
        space: size,
        programAddress: ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
      }),
    ],
    { signers: [input.account] },
  );
  // A range proof's Verify fills a transaction alone: one transaction each.
  const verified = await world.send([
    getVerifyProofInstruction({
      discriminator: input.proof.discriminator,
      contextState: input.account.address,
      contextStateAuthority: input.authority,
      proofData: input.proof.proofData,
    }),
  ]);
  expect([created.err, verified.err]).toEqual([null, null]);
}

/** The top-level instructions of a landed transaction, decoded from its wire bytes (no lookup tables). */
export function landedInstructions(world: PolicyWorld, signature: string): Instruction[] {
  const record = world.cluster.getTransaction(signature);
  if (record === null) throw new Error(`no transaction ${signature}`);
  const transaction = getTransactionDecoder().decode(record.wire);
  const message = decompileTransactionMessage(
    getCompiledTransactionMessageDecoder().decode(transaction.messageBytes),
  );
  return [...message.instructions];
}

/**
 * The inline Verify* payloads a client sent into `contexts` (by context address), read from the
 * transactions `signatures` landed: what an attacker who watched the chain can re-verify.
 */
export function verifiedPayloads(
  world: PolicyWorld,
  signatures: readonly string[],
  contexts: readonly Address[],
): Map<Address, ProofPayload> {
  const found = new Map<Address, ProofPayload>();
  for (const signature of signatures) {
    for (const instruction of landedInstructions(world, signature)) {
      const context = instruction.accounts?.[0]?.address;
      const data = instruction.data;
      if (instruction.programAddress !== ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS || data === undefined) continue;
      if (context === undefined || !contexts.includes(context)) continue;
      const discriminator = data[0] as ZkElGamalProofInstruction;
      if (!CONTEXT_SIZES.has(discriminator)) continue;
      found.set(context, { discriminator, proofData: Uint8Array.from(data.subarray(1)) });
    }
  }
  return found;
}
