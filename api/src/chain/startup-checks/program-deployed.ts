/**
 * Start-up check: the agent-policy program is deployed through the upgradeable loader (a program
 * account pointing at its ProgramData) and its bytes are the ones this service was built against
 * (`target/deploy/agent_policy.so`) or a build the operator allowed by its sha256. A program of
 * other bytes may have other accounts, instructions or rules: serving against it would be guesswork.
 *
 * "The program's bytes" are the ProgramData after its 45-byte header with trailing zero bytes
 * removed (a deploy with room for upgrades pads the ELF with zeros), and the same of the .so file,
 * so `sha256sum` of a `solana program dump` with its padding trimmed matches what is checked here.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { ConfigError } from "@cpay/ledger/config";
import { findProgramDataAddress, programDataAddressOf, programDataStateOf } from "@cpay/sdk";
import type { ChainPort } from "@cpay/sdk/chain";
import { address } from "@solana/kit";
import { builtProgramPath } from "../../core/config/built-program-path";

export interface ProgramCheck {
  /** Names the environment and the cluster in messages, e.g. `live (https://...)`. */
  readonly where: string;
  readonly programId: string;
  /** sha256 (hex) of accepted program bytes besides the built program's. */
  readonly allowedSha256s: readonly string[];
  /** The built program; default `builtProgramPath()`. */
  readonly builtProgramPath?: string;
}

export async function checkProgramDeployed(chain: ChainPort, check: ProgramCheck): Promise<void> {
  const programData = await findProgramDataAddress(address(check.programId));
  const [program, data] = await chain.getMultipleAccounts([check.programId, programData]);
  if (program?.executable !== true || programDataAddressOf(program) !== programData) {
    throw new ConfigError(
      `${check.where}: the agent-policy program ${check.programId} is not deployed through the upgradeable loader; ` +
        "deploy target/deploy/agent_policy.so there (npm run deploy) or set the environment's PROGRAM_ID",
    );
  }
  const state = programDataStateOf(data);
  if (state === null || state.bytes.length === 0) {
    throw new ConfigError(
      `${check.where}: the program ${check.programId} has no ProgramData account (${programData})`,
    );
  }
  const deployed = sha256Hex(trimTrailingZeros(state.bytes));
  const built = sha256Hex(trimTrailingZeros(readFileSync(check.builtProgramPath ?? builtProgramPath())));
  if (deployed !== built && !check.allowedSha256s.includes(deployed)) {
    throw new ConfigError(
      `${check.where}: the program ${check.programId} holds other bytes (sha256 ${deployed}) than ` +
        `target/deploy/agent_policy.so (sha256 ${built}); upgrade it, or allow that build in the environment's PROGRAM_SHA256S`,
    );
  }
}

function trimTrailingZeros(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end -= 1;
  return bytes.subarray(0, end);
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
