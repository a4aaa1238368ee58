/**
 * The last step of a deploy or an upgrade, from a buffer that holds the new program:
 * - deploy: create the program account (its keypair signs) and DeployWithMaxDataLen, which verifies
 *   the ELF and makes the ProgramData account with room for `maxDataLen` bytes (upgrades can then
 *   grow the program up to that without extending it);
 * - upgrade: Upgrade, which verifies the ELF and replaces the bytes in place, same program id.
 * Both close the buffer (its rent back to the payer) and take effect from the next slot, which is
 * waited for, so the program answers once this returns.
 */
import {
  BPF_LOADER_UPGRADEABLE_ADDRESS,
  findProgramDataAddress,
  getDeployWithMaxDataLenInstruction,
  getUpgradeInstruction,
  PROGRAM_ACCOUNT_SIZE,
} from "@cpay/sdk";
import type { ChainPort } from "@cpay/sdk/chain";
import type { Address, KeyPairSigner } from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import { type DeployTransaction, landTransaction } from "./land-transaction";

/** Creates the program `program` from `buffer` with room for `maxDataLen` bytes; returns the signature. */
export async function deployFromBuffer(
  chain: ChainPort,
  input: {
    readonly payer: KeyPairSigner;
    readonly program: KeyPairSigner;
    readonly buffer: Address;
    readonly maxDataLen: number;
  },
): Promise<string> {
  const { payer, program } = input;
  return landProgramChange(chain, {
    feePayer: payer,
    what: `deploy ${program.address}`,
    instructions: [
      getCreateAccountInstruction({
        payer,
        newAccount: program,
        lamports: await chain.minimumBalanceForRentExemption(PROGRAM_ACCOUNT_SIZE),
        space: PROGRAM_ACCOUNT_SIZE,
        programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
      }),
      getDeployWithMaxDataLenInstruction({
        payer: payer.address,
        programData: await findProgramDataAddress(program.address),
        program: program.address,
        buffer: input.buffer,
        authority: payer.address,
        maxDataLen: input.maxDataLen,
      }),
    ],
  });
}

/** Replaces `program`'s bytes with `buffer`'s, signed by its upgrade authority `payer`. */
export async function upgradeFromBuffer(
  chain: ChainPort,
  input: { readonly payer: KeyPairSigner; readonly program: Address; readonly buffer: Address },
): Promise<string> {
  const { payer } = input;
  return landProgramChange(chain, {
    feePayer: payer,
    what: `upgrade ${input.program}`,
    instructions: [
      getUpgradeInstruction({
        programData: await findProgramDataAddress(input.program),
        program: input.program,
        buffer: input.buffer,
        spill: payer.address,
        authority: payer.address,
      }),
    ],
  });
}

/** Lands a change of the program's bytes, then waits for the next slot: the change runs from there. */
async function landProgramChange(chain: ChainPort, transaction: DeployTransaction): Promise<string> {
  const signature = await landTransaction(chain, transaction);
  await nextSlot(chain);
  return signature;
}

/** Waits until the cluster is past the slot it is in now (a program changed in slot S runs from S + 1). */
async function nextSlot(chain: ChainPort): Promise<void> {
  const now = await chain.getSlot();
  while ((await chain.getSlot()) <= now) await new Promise((resolve) => setTimeout(resolve, 100));
}
