/**
 * Program errors -> their IDL name and message. The program fails with
 * `InstructionError(index, Custom(code))`, codes 6000 and up (programs/agent-policy/src/error.rs);
 * the names and messages are the IDL's, rendered into the generated client
 * (`AGENT_POLICY_ERROR_DETAILS`, one entry per code, 1:1 with the program).
 *
 * A custom code only says which program failed when its instruction is known to be ours: a CPI
 * callee's error surfaces under the calling instruction's index (Token-2022's `Custom(1)` inside
 * our `agent_transfer`). Codes outside the table are never attributed to us; pass the transaction's
 * instruction program ids to also refuse codes raised by other programs' instructions.
 */
import { type Address, isSolanaError, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM } from "@solana/kit";
import {
  AGENT_POLICY_ERROR_DETAILS,
  AGENT_POLICY_PROGRAM_ADDRESS,
  type AgentPolicyError,
} from "../generated";

/** A program error, as the IDL names it. */
export interface AgentPolicyErrorInfo {
  readonly code: AgentPolicyError;
  readonly name: string;
  readonly message: string;
  /** The index of the failing top-level instruction. */
  readonly instructionIndex: number;
}

/** Which transaction the error came from, to check the failing instruction is the program's. */
export interface ProgramErrorContext {
  /** The program id of each top-level instruction of the transaction, in order. */
  readonly instructionProgramAddresses?: readonly Address[];
  readonly programAddress?: Address;
}

/** The IDL's name and message of a program error code, or null for a code the program does not use. */
export function getAgentPolicyErrorDetails(
  code: number,
): { readonly name: string; readonly message: string } | null {
  return Object.hasOwn(AGENT_POLICY_ERROR_DETAILS, code)
    ? AGENT_POLICY_ERROR_DETAILS[code as AgentPolicyError]
    : null;
}

/**
 * Maps a failed transaction's error to the program error it is, or null. Accepts Solana's JSON
 * form (`{ InstructionError: [2, { Custom: 6025 }] }`, as RPC `err` fields and the cluster port
 * return it) and kit's `SolanaError` (an instruction's custom error, also when it is the `cause`
 * of a preflight or send failure).
 */
export function getAgentPolicyErrorFromTransactionError(
  error: unknown,
  context: ProgramErrorContext = {},
): AgentPolicyErrorInfo | null {
  const custom = customInstructionError(error);
  if (custom === null) return null;
  const programs = context.instructionProgramAddresses;
  if (
    programs !== undefined &&
    programs[custom.index] !== (context.programAddress ?? AGENT_POLICY_PROGRAM_ADDRESS)
  ) {
    return null;
  }
  const details = getAgentPolicyErrorDetails(custom.code);
  return details === null
    ? null
    : { code: custom.code as AgentPolicyError, ...details, instructionIndex: custom.index };
}

function customInstructionError(error: unknown): { index: number; code: number } | null {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; depth += 1) {
    if (isSolanaError(current, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)) {
      return { index: current.context.index, code: current.context.code };
    }
    const json = customFromJson(current);
    if (json !== null) return json;
    current = current instanceof Error ? current.cause : undefined;
  }
  return null;
}

function customFromJson(value: unknown): { index: number; code: number } | null {
  if (typeof value !== "object" || value === null || !("InstructionError" in value)) return null;
  const instructionError = value.InstructionError;
  if (!Array.isArray(instructionError) || instructionError.length !== 2) return null;
  const [index, inner] = instructionError as [unknown, unknown];
  if (typeof inner !== "object" || inner === null || !("Custom" in inner)) return null;
  const code = Number(inner.Custom);
  return Number.isSafeInteger(index) && Number.isSafeInteger(code) ? { index: index as number, code } : null;
}
