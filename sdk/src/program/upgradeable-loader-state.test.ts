import { getAddressDecoder, getAddressEncoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "./upgradeable-loader";
import { programDataAddressOf, programDataStateOf } from "./upgradeable-loader-state";

const LOADER = BPF_LOADER_UPGRADEABLE_ADDRESS;
const PROGRAM_DATA = getAddressDecoder().decode(new Uint8Array(32).fill(3));
const AUTHORITY = getAddressDecoder().decode(new Uint8Array(32).fill(4));

/** Loader state bytes: the u32 tag, then `fields`. */
function state(tag: number, ...fields: ArrayLike<number>[]): Uint8Array {
  return Uint8Array.from([tag, 0, 0, 0, ...fields.flatMap((field) => Array.from(field))]);
}

describe("the upgradeable loader's accounts", () => {
  const program = state(2, getAddressEncoder().encode(PROGRAM_DATA));
  const elf = [0x7f, 0x45, 0x4c, 0x46, 0, 0];
  const withAuthority = state(3, new Uint8Array(8), [1], getAddressEncoder().encode(AUTHORITY), elf);
  const immutable = state(3, new Uint8Array(8), [0], new Uint8Array(32), elf);

  it("Given a Program account, Then it names its ProgramData; anything else names none", () => {
    expect(programDataAddressOf({ owner: LOADER, data: program })).toBe(PROGRAM_DATA);
    expect(programDataAddressOf({ owner: "11111111111111111111111111111111", data: program })).toBeNull();
    expect(programDataAddressOf({ owner: LOADER, data: program.slice(0, 35) })).toBeNull();
    expect(programDataAddressOf({ owner: LOADER, data: withAuthority })).toBeNull();
    expect(programDataAddressOf(null)).toBeNull();
  });

  it("Given a ProgramData account, Then its upgrade authority (null once immutable) and its program bytes", () => {
    expect(programDataStateOf({ owner: LOADER, data: withAuthority })).toEqual({
      upgradeAuthority: AUTHORITY,
      bytes: Uint8Array.from(elf),
    });
    expect(programDataStateOf({ owner: LOADER, data: immutable })?.upgradeAuthority).toBeNull();
    expect(programDataStateOf({ owner: LOADER, data: program })).toBeNull();
  });
});
