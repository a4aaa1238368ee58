/**
 * What a cluster holds for the agent-policy program, read before a deploy (to refuse early) and
 * after it (to check it): the program account and its ProgramData (layouts in the SDK's
 * upgradeable-loader.ts), and the program's config PDA.
 */
import { createHash } from "node:crypto";
import {
  findConfigPda,
  findProgramDataAddress,
  getConfigDecoder,
  programDataAddressOf,
  programDataStateOf,
} from "@cpay/sdk";
import type { ChainPort } from "@cpay/sdk/chain";
import type { Address } from "@solana/kit";
import { DeployError } from "./deploy-error";

export interface DeployedProgram {
  readonly programData: Address;
  /** null when the program was made immutable. */
  readonly upgradeAuthority: Address | null;
  /** Room for program bytes (ProgramData's length less its header). */
  readonly maxDataLen: number;
  /** The program bytes area, `maxDataLen` long (the ELF, then zeros). */
  readonly bytes: Uint8Array;
}

/** The program at `programId`, or null when there is no account there. */
export async function readDeployedProgram(
  chain: ChainPort,
  programId: Address,
): Promise<DeployedProgram | null> {
  const program = await chain.getAccount(programId);
  if (program === null) return null;
  if (programDataAddressOf(program) === null) {
    throw new DeployError(`${programId} is not a program of the upgradeable loader (owner ${program.owner})`);
  }
  const programData = await findProgramDataAddress(programId);
  const state = programDataStateOf(await chain.getAccount(programData));
  if (state === null) {
    throw new DeployError(`the ProgramData account ${programData} of ${programId} is missing`);
  }
  return {
    programData,
    upgradeAuthority: state.upgradeAuthority,
    maxDataLen: state.bytes.length,
    bytes: state.bytes,
  };
}

export interface ProgramConfigState {
  readonly address: Address;
  readonly admin: Address;
  readonly registrar: Address;
}

/** The program's config account, or null when it is not initialised. */
export async function readProgramConfig(
  chain: ChainPort,
  programId: Address,
): Promise<ProgramConfigState | null> {
  const [configAddress] = await findConfigPda({ programAddress: programId });
  const account = await chain.getAccount(configAddress);
  if (account === null) return null;
  if (account.owner !== programId) {
    throw new DeployError(`the config address ${configAddress} is held by ${account.owner}, not the program`);
  }
  const config = getConfigDecoder().decode(account.data);
  return { address: configAddress, admin: config.admin, registrar: config.registrar };
}

/** SHA-256 of `bytes`, hex: how an operator compares a .so with what a cluster holds. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** True when the program area holds exactly `elf`, then zeros. */
export function holdsProgram(program: DeployedProgram, elf: Uint8Array): boolean {
  if (program.bytes.length < elf.length) return false;
  if (sha256Hex(program.bytes.subarray(0, elf.length)) !== sha256Hex(elf)) return false;
  return program.bytes.subarray(elf.length).every((byte) => byte === 0);
}
