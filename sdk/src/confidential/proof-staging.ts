/**
 * Staging proof data too large to verify in a transaction of its own. A U128 range proof is 1,000
 * bytes: its Verify transaction is 1,207 of 1,232 bytes when the payer is the context's authority,
 * and 1,239 — over the packet limit — when the authority is another account (the agent PDA). The
 * ZK ElGamal Proof program can read proof data from any account at an offset instead of from the
 * instruction, so such a proof is written into a scratch account first and verified from there.
 *
 * The scratch account is a BPF Upgradeable Loader buffer: the one account type a default cluster
 * (LiteSVM, mainnet) lets anyone fill with arbitrary bytes without deploying a program (the SPL
 * Record program would do too, but is not in LiteSVM). The payer creates it (37-byte header +
 * the proofs), writes each proof in its own transaction (1,222 bytes for a U128 proof), verifies
 * from it in the operation's final transaction and closes it there, getting the rent back. Nothing
 * it holds is secret: proof data is public once verified anyway.
 *
 * The buffer's authority (who signs the Writes and the Close) is the payer unless `authority` names
 * another signer: a relay's fee payer only pays, so a relayed run makes the agent signer the
 * authority. That second signature (and key) costs 96 bytes, so a U128 proof's Write no longer fits
 * one transaction: `writes(i, chunks)` splits a proof into parts, each written in its own.
 */
import {
  type Address,
  addSignersToInstruction,
  type Instruction,
  type KeyPairSigner,
  type TransactionSigner,
} from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import { getVerifyProofInstruction, type ZkElGamalProofInstruction } from "@solana-program/zk-elgamal-proof";
import type { ChainPort } from "../chain/chain-port";
import {
  BPF_LOADER_UPGRADEABLE_ADDRESS,
  BUFFER_METADATA_SIZE,
  getCloseBufferInstruction,
  getInitializeBufferInstruction,
  getWriteInstruction,
} from "../program/upgradeable-loader";

/** One proof placed in the buffer. */
export interface StagedProof {
  readonly instruction: ZkElGamalProofInstruction;
  readonly data: Uint8Array;
  readonly contextState: Address;
}

export interface ProofStaging {
  readonly buffer: KeyPairSigner;
  /** CreateAccount + InitializeBuffer (authority: the payer or `authority`), atomically. */
  readonly create: Instruction[];
  /** Proof `index` written in `chunks` consecutive parts (default 1), each for its own transaction. */
  readonly writes: (index: number, chunks?: number) => Instruction[];
  /** One Verify per proof, reading from the buffer, for the final transaction. */
  readonly verifies: (authority: Address) => Instruction[];
  /** Close the buffer (signed by its authority), rent to the payer. */
  readonly close: Instruction;
}

/**
 * Lays `proofs` out back to back in a new buffer owned by the loader, paid for by `payer` and
 * written by `authority` (default: the payer).
 */
export async function planProofStaging(
  chain: ChainPort,
  payer: TransactionSigner,
  buffer: KeyPairSigner,
  proofs: readonly StagedProof[],
  authority: TransactionSigner = payer,
): Promise<ProofStaging> {
  // The payer signs as fee payer already; another authority's signature rides on the instruction.
  const signedBy = (instruction: Instruction) =>
    authority === payer ? instruction : addSignersToInstruction([authority], instruction);
  const offsets: number[] = [];
  let length = 0;
  for (const proof of proofs) {
    offsets.push(length);
    length += proof.data.length;
  }
  const space = BUFFER_METADATA_SIZE + length;
  const lamports = await chain.minimumBalanceForRentExemption(space);
  return {
    buffer,
    create: [
      getCreateAccountInstruction({
        payer,
        newAccount: buffer,
        lamports,
        space,
        programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
      }),
      getInitializeBufferInstruction(buffer.address, authority.address),
    ],
    writes: (index, chunks = 1) => {
      const proof = proofs[index];
      if (proof === undefined) throw new Error(`no staged proof ${index}`);
      const size = Math.ceil(proof.data.length / chunks);
      const parts: Instruction[] = [];
      for (let start = 0; start < proof.data.length; start += size) {
        const offset = (offsets[index] ?? 0) + start;
        const bytes = chunks === 1 ? proof.data : proof.data.subarray(start, start + size);
        parts.push(signedBy(getWriteInstruction(buffer.address, authority.address, offset, bytes)));
      }
      return parts;
    },
    verifies: (authority) =>
      proofs.map((proof, i) =>
        getVerifyProofInstruction({
          discriminator: proof.instruction,
          proofAccount: buffer.address,
          offset: BUFFER_METADATA_SIZE + (offsets[i] ?? 0),
          contextState: proof.contextState,
          contextStateAuthority: authority,
        }),
      ),
    close: signedBy(getCloseBufferInstruction(buffer.address, payer.address, authority.address)),
  };
}
