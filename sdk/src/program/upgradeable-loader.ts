/**
 * Instructions of the BPF Upgradeable Loader (`BPFLoaderUpgradeab1e11111111111111111111111`), built by
 * hand: no kit client package exists for it. The loader reads its instruction data with bincode, so
 * each one is a little-endian u32 variant tag followed by the variant's fields (u32/u64 little-endian,
 * `Vec<u8>` as a u64 length then the bytes). The three a first deploy needs are here, and Close,
 * with which a buffer used as scratch space (staged proof data, confidential/proof-staging.ts) is
 * given back, and Upgrade, which replaces a deployed program's bytes from a buffer.
 *
 * Account layouts (`UpgradeableLoaderState`, bincode, u32 tag first):
 * - Buffer      tag 1, authority `Option<Pubkey>` (1 + 32), then the program bytes: 37 + len
 * - Program     tag 2, programdata address (32):                                       36
 * - ProgramData tag 3, deploy slot u64, upgrade authority `Option<Pubkey>` (1 + 32), then the ELF:
 *   45 + max_data_len. Its address is the PDA `[program id]` of the loader.
 */
import {
  AccountRole,
  type Address,
  address,
  getAddressEncoder,
  getProgramDerivedAddress,
  type Instruction,
} from "@solana/kit";

export const BPF_LOADER_UPGRADEABLE_ADDRESS = address("BPFLoaderUpgradeab1e11111111111111111111111");
const SYSTEM_PROGRAM_ADDRESS = address("11111111111111111111111111111111");
const SYSVAR_RENT_ADDRESS = address("SysvarRent111111111111111111111111111111111");
const SYSVAR_CLOCK_ADDRESS = address("SysvarC1ock11111111111111111111111111111111");

export const BUFFER_METADATA_SIZE = 37;
export const PROGRAM_ACCOUNT_SIZE = 36;
export const PROGRAMDATA_METADATA_SIZE = 45;

const TAG_INITIALIZE_BUFFER = 0;
const TAG_WRITE = 1;
const TAG_DEPLOY_WITH_MAX_DATA_LEN = 2;
const TAG_UPGRADE = 3;
const TAG_CLOSE = 5;

/** The ProgramData account of `programId`: PDA with the single seed `programId`, owned by the loader. */
export async function findProgramDataAddress(programId: Address): Promise<Address> {
  const [pda] = await getProgramDerivedAddress({
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    seeds: [getAddressEncoder().encode(programId)],
  });
  return pda;
}

/**
 * InitializeBuffer (tag 0). Accounts: [0] buffer (writable, already allocated 37 + len bytes and
 * owned by the loader), [1] buffer authority (read-only; the key that must sign every Write).
 */
export function getInitializeBufferInstruction(buffer: Address, authority: Address): Instruction {
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      { address: buffer, role: AccountRole.WRITABLE },
      { address: authority, role: AccountRole.READONLY },
    ],
    data: u32(TAG_INITIALIZE_BUFFER),
  };
}

/**
 * Write (tag 1) `{ offset: u32, bytes: Vec<u8> }`: copies `bytes` to program offset `offset` of the
 * buffer (after its 37-byte header). Accounts: [0] buffer (writable), [1] buffer authority (signer).
 */
export function getWriteInstruction(
  buffer: Address,
  authority: Address,
  offset: number,
  bytes: Uint8Array,
): Instruction {
  const data = new Uint8Array(4 + 4 + 8 + bytes.length);
  const view = new DataView(data.buffer);
  view.setUint32(0, TAG_WRITE, true);
  view.setUint32(4, offset, true);
  view.setBigUint64(8, BigInt(bytes.length), true);
  data.set(bytes, 16);
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      { address: buffer, role: AccountRole.WRITABLE },
      { address: authority, role: AccountRole.READONLY_SIGNER },
    ],
    data,
  };
}

/**
 * DeployWithMaxDataLen (tag 2) `{ max_data_len: u64 }`: verifies the ELF in the buffer, creates the
 * ProgramData account (funded by the payer) with room for `maxDataLen` bytes, copies the program in,
 * marks the program account executable and closes the buffer (its lamports go to the payer).
 * Accounts: [0] payer (writable, signer), [1] programdata (writable), [2] program (writable, already
 * allocated 36 bytes and owned by the loader), [3] buffer (writable), [4] Rent sysvar, [5] Clock
 * sysvar, [6] System program, [7] upgrade authority (signer; must be the buffer's authority).
 */
export function getDeployWithMaxDataLenInstruction(input: {
  readonly payer: Address;
  readonly programData: Address;
  readonly program: Address;
  readonly buffer: Address;
  readonly authority: Address;
  readonly maxDataLen: number;
}): Instruction {
  const data = new Uint8Array(12);
  const view = new DataView(data.buffer);
  view.setUint32(0, TAG_DEPLOY_WITH_MAX_DATA_LEN, true);
  view.setBigUint64(4, BigInt(input.maxDataLen), true);
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      { address: input.payer, role: AccountRole.WRITABLE_SIGNER },
      { address: input.programData, role: AccountRole.WRITABLE },
      { address: input.program, role: AccountRole.WRITABLE },
      { address: input.buffer, role: AccountRole.WRITABLE },
      { address: SYSVAR_RENT_ADDRESS, role: AccountRole.READONLY },
      { address: SYSVAR_CLOCK_ADDRESS, role: AccountRole.READONLY },
      { address: SYSTEM_PROGRAM_ADDRESS, role: AccountRole.READONLY },
      { address: input.authority, role: AccountRole.READONLY_SIGNER },
    ],
    data,
  };
}

/**
 * Upgrade (tag 3): verifies the ELF in the buffer, copies it over the program's ProgramData (the rest
 * of its `max_data_len` zeroed), records the slot, and closes the buffer (its lamports to `spill`).
 * The new bytes run from the next slot. Accounts: [0] programdata (writable), [1] program
 * (writable), [2] buffer (writable; its authority must be the upgrade authority), [3] spill
 * (writable), [4] Rent sysvar, [5] Clock sysvar, [6] upgrade authority (signer).
 */
export function getUpgradeInstruction(input: {
  readonly programData: Address;
  readonly program: Address;
  readonly buffer: Address;
  readonly spill: Address;
  readonly authority: Address;
}): Instruction {
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      { address: input.programData, role: AccountRole.WRITABLE },
      { address: input.program, role: AccountRole.WRITABLE },
      { address: input.buffer, role: AccountRole.WRITABLE },
      { address: input.spill, role: AccountRole.WRITABLE },
      { address: SYSVAR_RENT_ADDRESS, role: AccountRole.READONLY },
      { address: SYSVAR_CLOCK_ADDRESS, role: AccountRole.READONLY },
      { address: input.authority, role: AccountRole.READONLY_SIGNER },
    ],
    data: u32(TAG_UPGRADE),
  };
}

function u32(value: number): Uint8Array {
  const data = new Uint8Array(4);
  new DataView(data.buffer).setUint32(0, value, true);
  return data;
}

/**
 * Close (tag 5) of a buffer: its lamports go to `recipient` and the account is emptied. Accounts:
 * [0] buffer (writable), [1] recipient (writable), [2] buffer authority (signer).
 */
export function getCloseBufferInstruction(
  buffer: Address,
  recipient: Address,
  authority: Address,
): Instruction {
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      { address: buffer, role: AccountRole.WRITABLE },
      { address: recipient, role: AccountRole.WRITABLE },
      { address: authority, role: AccountRole.READONLY_SIGNER },
    ],
    data: u32(TAG_CLOSE),
  };
}
