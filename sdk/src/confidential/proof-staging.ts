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
 */
import type { Address, Instruction, KeyPairSigner, TransactionSigner } from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import { getVerifyProofInstruction, type ZkElGamalProofInstruction } from "@solana-program/zk-elgamal-proof";
import type { ClusterPort } from "../cluster/cluster-port";
import {
  BPF_LOADER_UPGRADEABLE_ADDRESS,
  BUFFER_METADATA_SIZE,
  getCloseBufferInstruction,
  getInitializeBufferInstruction,
  getWriteInstruction,
} from "../cluster/upgradeable-loader";

/** One proof placed in the buffer. */
export interface StagedProof {
  readonly instruction: ZkElGamalProofInstruction;
  readonly data: Uint8Array;
  readonly contextState: Address;
}

export interface ProofStaging {
  readonly buffer: KeyPairSigner;
  /** CreateAccount + InitializeBuffer (authority: the payer), atomically. */
  readonly create: Instruction[];
  /** One Write per proof, each for its own transaction. */
  readonly writes: Instruction[];
  /** One Verify per proof, reading from the buffer, for the final transaction. */
  readonly verifies: (authority: Address) => Instruction[];
  /** Close the buffer, rent to the payer. */
  readonly close: Instruction;
}

/** Lays `proofs` out back to back in a new buffer owned by the loader, written by `payer`. */
export function planProofStaging(
  cluster: ClusterPort,
  payer: TransactionSigner,
  buffer: KeyPairSigner,
  proofs: readonly StagedProof[],
): ProofStaging {
  const offsets: number[] = [];
  let length = 0;
  for (const proof of proofs) {
    offsets.push(length);
    length += proof.data.length;
  }
  const space = BUFFER_METADATA_SIZE + length;
  return {
    buffer,
    create: [
      getCreateAccountInstruction({
        payer,
        newAccount: buffer,
        lamports: cluster.minimumBalanceForRentExemption(space),
        space,
        programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
      }),
      getInitializeBufferInstruction(buffer.address, payer.address),
    ],
    writes: proofs.map((proof, i) =>
      getWriteInstruction(buffer.address, payer.address, offsets[i] ?? 0, proof.data),
    ),
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
    close: getCloseBufferInstruction(buffer.address, payer.address, payer.address),
  };
}
