/**
 * Hand-built instructions and decoders for the agent-policy program, for the suites that exist
 * before the IDL-generated client (issue 3 replaces this file with `sdk/src/generated/`).
 * Layouts are documented in programs/agent-policy/src/instructions/*.rs and state/*.rs.
 */
import { createHash } from "node:crypto";
import { findProgramDataAddress } from "@cpay/sdk/cluster";
import {
  AccountRole,
  type Address,
  getAddressDecoder,
  getAddressEncoder,
  getProgramDerivedAddress,
  type Instruction,
} from "@solana/kit";

const SYSTEM_PROGRAM = "11111111111111111111111111111111" as Address;

/** Anchor discriminator: `sha256("<namespace>:<name>")[..8]`. */
export function anchorDiscriminator(preimage: string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(preimage).digest().subarray(0, 8));
}

export async function findConfigAddress(programId: Address): Promise<Address> {
  const [config] = await getProgramDerivedAddress({ programAddress: programId, seeds: ["config"] });
  return config;
}

/** `config_initialize(registrar)`: accounts config, admin, program_data, system_program. */
export async function configInitializeInstruction(input: {
  readonly programId: Address;
  readonly admin: Address;
  readonly registrar: Address;
  readonly config?: Address;
  readonly programData?: Address;
}): Promise<Instruction> {
  const data = new Uint8Array(40);
  data.set(anchorDiscriminator("global:config_initialize"), 0);
  data.set(getAddressEncoder().encode(input.registrar), 8);
  return {
    programAddress: input.programId,
    accounts: [
      { address: input.config ?? (await findConfigAddress(input.programId)), role: AccountRole.WRITABLE },
      { address: input.admin, role: AccountRole.WRITABLE_SIGNER },
      {
        address: input.programData ?? (await findProgramDataAddress(input.programId)),
        role: AccountRole.READONLY,
      },
      { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
    ],
    data,
  };
}

export interface DecodedConfig {
  readonly admin: Address;
  readonly registrar: Address;
  readonly bump: number;
  readonly layoutVersion: number;
}

export const CONFIG_LEN = 208;

export function decodeConfig(data: Uint8Array): DecodedConfig {
  const expected = anchorDiscriminator("account:Config");
  if (data.length !== CONFIG_LEN || !expected.every((byte, i) => data[i] === byte)) {
    throw new Error("not a Config account");
  }
  const decoder = getAddressDecoder();
  return {
    admin: decoder.decode(data.subarray(8, 40)),
    registrar: decoder.decode(data.subarray(40, 72)),
    bump: data[72] ?? -1,
    layoutVersion: data[73] ?? -1,
  };
}

/** The bodies of `Program data:` log lines whose discriminator is `event:<name>`. */
export function eventsNamed(logs: readonly string[], name: string): Uint8Array[] {
  const discriminator = anchorDiscriminator(`event:${name}`);
  return logs
    .filter((line) => line.startsWith("Program data: "))
    .map((line) => new Uint8Array(Buffer.from(line.slice("Program data: ".length), "base64")))
    .filter((bytes) => discriminator.every((byte, i) => bytes[i] === byte))
    .map((bytes) => bytes.subarray(8));
}
