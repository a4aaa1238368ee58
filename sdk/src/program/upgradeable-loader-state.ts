/**
 * Reading the BPF Upgradeable Loader's accounts (`UpgradeableLoaderState`, layouts in
 * upgradeable-loader.ts): what a deploy checks before and after it runs, and what the service checks
 * at start-up. Account bytes are a trust boundary: the owner, the u32 state tag and the length come
 * first.
 */
import { type Address, getAddressDecoder, getU32Decoder } from "@solana/kit";
import type { OwnedBytes } from "./program-account";
import {
  BPF_LOADER_UPGRADEABLE_ADDRESS,
  PROGRAM_ACCOUNT_SIZE,
  PROGRAMDATA_METADATA_SIZE,
} from "./upgradeable-loader";

const PROGRAM_STATE_TAG = 2;
const PROGRAMDATA_STATE_TAG = 3;

/** A ProgramData account, read. */
export interface ProgramDataState {
  /** Null once the program was made immutable. */
  readonly upgradeAuthority: Address | null;
  /** The program bytes area after the header: the ELF, then zeros up to the room kept for upgrades. */
  readonly bytes: Uint8Array;
}

/** The ProgramData address a loader Program account names, or null when `account` is not one. */
export function programDataAddressOf(account: OwnedBytes | null | undefined): Address | null {
  if (!isLoaderState(account, PROGRAM_STATE_TAG, PROGRAM_ACCOUNT_SIZE)) return null;
  return getAddressDecoder().decode(account.data.subarray(4, 36));
}

/** A loader ProgramData account's upgrade authority and program bytes, or null when it is not one. */
export function programDataStateOf(account: OwnedBytes | null | undefined): ProgramDataState | null {
  if (!isLoaderState(account, PROGRAMDATA_STATE_TAG, PROGRAMDATA_METADATA_SIZE)) return null;
  const { data } = account;
  return {
    upgradeAuthority: data[12] === 1 ? getAddressDecoder().decode(data.subarray(13, 45)) : null,
    bytes: data.subarray(PROGRAMDATA_METADATA_SIZE),
  };
}

function isLoaderState(
  account: OwnedBytes | null | undefined,
  tag: number,
  minLength: number,
): account is OwnedBytes {
  if (account?.owner !== BPF_LOADER_UPGRADEABLE_ADDRESS || account.data.length < minLength) return false;
  return getU32Decoder().decode(account.data) === tag;
}
