/**
 * Deploys a program the way `solana program deploy` does, through the BPF Upgradeable Loader in real
 * transactions: (1) create + InitializeBuffer, (2) Write the ELF in chunks that fill a 1232-byte
 * packet, (3) create the program account + DeployWithMaxDataLen, which verifies the ELF (LiteSVM's
 * `addProgram` skips that verification, so a program that deploys here deploys on a real cluster).
 * The program becomes invocable from the next slot: the caller must advance the clock once.
 */

import {
  BPF_LOADER_UPGRADEABLE_ADDRESS,
  BUFFER_METADATA_SIZE,
  findProgramDataAddress,
  getDeployWithMaxDataLenInstruction,
  getInitializeBufferInstruction,
  getWriteInstruction,
  PROGRAM_ACCOUNT_SIZE,
} from "@cpay/sdk";
import type { LocalnetKey } from "@cpay/sdk/chain";
import { PACKET_DATA_SIZE } from "@cpay/sdk/chain";
import { createNoopSigner } from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import type { TransactionRecord } from "./cluster-port";
import { buildLocalTransaction, type LocalTarget, type LocalTransactionRequest } from "./local-transaction";

const PLACEHOLDER_BLOCKHASH = "11111111111111111111111111111111";

export interface DeployProgramInput {
  readonly target: LocalTarget;
  /** Pays for everything and becomes buffer and upgrade authority. */
  readonly authority: LocalnetKey;
  /** The program id keypair (signs the creation of the program account). */
  readonly program: LocalnetKey;
  /** A fresh keypair for the buffer account. */
  readonly buffer: LocalnetKey;
  readonly elf: Uint8Array;
  /** Room in ProgramData for upgrades; default the ELF's length (the CLI's default). */
  readonly maxDataLen?: number;
}

export interface ProgramDeployment {
  readonly programId: string;
  readonly programData: string;
  readonly elfLength: number;
  /** Every transaction of the deploy, in order (buffer, writes..., deploy). */
  readonly signatures: readonly string[];
  /** CU of the final CreateAccount + DeployWithMaxDataLen transaction. */
  readonly deployComputeUnits: bigint;
  /** CU of all deploy transactions together. */
  readonly totalComputeUnits: bigint;
}

export async function deployProgram(input: DeployProgramInput): Promise<ProgramDeployment> {
  const { target, authority, program, buffer, elf } = input;
  const programData = await findProgramDataAddress(program.address);
  const records: TransactionRecord[] = [];
  const land = (request: LocalTransactionRequest, what: string) => {
    const record = target.submit(request, what);
    records.push(record);
    return record;
  };

  const bufferSize = BUFFER_METADATA_SIZE + elf.length;
  land(
    {
      feePayer: authority,
      signers: [buffer],
      instructions: [
        getCreateAccountInstruction({
          payer: createNoopSigner(authority.address),
          newAccount: createNoopSigner(buffer.address),
          lamports: target.minimumBalanceForRentExemption(bufferSize),
          space: bufferSize,
          programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
        }),
        getInitializeBufferInstruction(buffer.address, authority.address),
      ],
    },
    "create buffer",
  );

  const write = (offset: number, bytes: Uint8Array): LocalTransactionRequest => ({
    feePayer: authority,
    instructions: [getWriteInstruction(buffer.address, authority.address, offset, bytes)],
  });
  // Overhead measured on an empty write (the blockhash value does not change the size); -1 because
  // the instruction data length's compact-u16 grows to 2 bytes once the chunk is large.
  const overhead = buildLocalTransaction({
    ...write(0, new Uint8Array(0)),
    blockhash: PLACEHOLDER_BLOCKHASH,
  }).length;
  const chunkSize = PACKET_DATA_SIZE - overhead - 1;
  for (let offset = 0; offset < elf.length; offset += chunkSize) {
    land(write(offset, elf.subarray(offset, offset + chunkSize)), `write at ${offset}`);
  }

  const deploy = land(
    {
      feePayer: authority,
      signers: [program],
      instructions: [
        getCreateAccountInstruction({
          payer: createNoopSigner(authority.address),
          newAccount: createNoopSigner(program.address),
          lamports: target.minimumBalanceForRentExemption(PROGRAM_ACCOUNT_SIZE),
          space: PROGRAM_ACCOUNT_SIZE,
          programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
        }),
        getDeployWithMaxDataLenInstruction({
          payer: authority.address,
          programData,
          program: program.address,
          buffer: buffer.address,
          authority: authority.address,
          maxDataLen: input.maxDataLen ?? elf.length,
        }),
      ],
    },
    "deploy",
  );

  return {
    programId: program.address,
    programData,
    elfLength: elf.length,
    signatures: records.map((r) => r.signature),
    deployComputeUnits: deploy.computeUnitsConsumed,
    totalComputeUnits: records.reduce((sum, r) => sum + r.computeUnitsConsumed, 0n),
  };
}
