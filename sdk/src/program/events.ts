/**
 * The program's events from a transaction's log messages. The program emits each event with
 * `sol_log_data(discriminator ++ borsh(body))`, which the runtime logs as `Program data: <base64>`
 * while our program is executing. Any program can log a `Program data:` line, so lines are only
 * attributed to the program on top of the invocation stack rebuilt from the runtime's
 * `Program <id> invoke [depth]` / `Program <id> success` / `Program <id> failed: ...` lines: a CPI
 * callee's data lines (Token-2022, another program calling ours...) are never taken for ours, and
 * ours are found at any depth (another program may invoke ours).
 *
 * Events of a failed transaction never happened: check the transaction's `err` first.
 */
import { type Address, getBase64Encoder } from "@solana/kit";
import { AGENT_POLICY_PROGRAM_ADDRESS, type AgentPolicyEvent, decodeAgentPolicyEvent } from "../generated";

/** An event and where it was emitted. */
export type LoggedAgentPolicyEvent = AgentPolicyEvent & {
  /** The top-level instruction (0-based, in log order) during which it was emitted. */
  readonly instructionIndex: number;
};

/** A `Program data:` entry of our program whose discriminator the IDL does not know. */
export interface UnrecognizedProgramData {
  readonly instructionIndex: number;
  readonly data: Uint8Array;
}

/** Everything the logs say about the program's events. */
export interface ParsedAgentPolicyEvents {
  readonly events: readonly LoggedAgentPolicyEvent[];
  /** Data entries of our program with an unknown discriminator (a newer program version). */
  readonly unrecognized: readonly UnrecognizedProgramData[];
  /** The runtime cut the logs short (`Log truncated`): events after the cut are missing. */
  readonly truncated: boolean;
}

/** A `Program data:` entry of our program that is not valid base64 or whose body does not decode. */
export class EventLogError extends Error {
  override readonly name = "EventLogError";
  readonly line: number;

  constructor(line: number, message: string, options?: { cause?: unknown }) {
    super(`log line ${line}: ${message}`, options);
    this.line = line;
  }
}

const INVOKE = /^Program ([1-9A-HJ-NP-Za-km-z]{32,44}) invoke \[(\d+)\]$/;
const EXIT = /^Program ([1-9A-HJ-NP-Za-km-z]{32,44}) (?:success$|failed: )/;
const DATA_PREFIX = "Program data: ";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Parses the program's events out of `logs` (a transaction's `logMessages`), in emission order.
 * Only `Program data:` lines logged while `programAddress` (the deployed agent-policy program by
 * default) is on top of the invocation stack count. Throws an `EventLogError` when such a line is
 * not base64 or a known event's body is malformed: that is a program/IDL mismatch, not noise.
 */
export function parseAgentPolicyEvents(
  logs: readonly string[],
  options: { readonly programAddress?: Address } = {},
): ParsedAgentPolicyEvents {
  const programAddress = options.programAddress ?? AGENT_POLICY_PROGRAM_ADDRESS;
  const stack: string[] = [];
  const events: LoggedAgentPolicyEvent[] = [];
  const unrecognized: UnrecognizedProgramData[] = [];
  let instructionIndex = -1;
  let truncated = false;

  logs.forEach((line, lineIndex) => {
    const invoke = INVOKE.exec(line);
    if (invoke !== null) {
      const depth = Number(invoke[2]);
      if (depth === 1) instructionIndex += 1;
      // The depth is authoritative: it resynchronises the stack after any line we could not see.
      stack.length = Math.max(0, depth - 1);
      stack.push(invoke[1] ?? "");
      return;
    }
    const exit = EXIT.exec(line);
    if (exit !== null) {
      const at = stack.lastIndexOf(exit[1] ?? "");
      if (at >= 0) stack.length = at;
      return;
    }
    if (line === "Log truncated") {
      truncated = true;
      return;
    }
    if (!line.startsWith(DATA_PREFIX) || stack[stack.length - 1] !== programAddress) return;
    const data = decodeDataLine(line.slice(DATA_PREFIX.length), lineIndex);
    let event: AgentPolicyEvent | null;
    try {
      event = decodeAgentPolicyEvent(data);
    } catch (error) {
      throw new EventLogError(lineIndex, "an event body does not match the IDL", { cause: error });
    }
    if (event === null) unrecognized.push({ instructionIndex, data });
    else events.push({ ...event, instructionIndex });
  });

  return { events, unrecognized, truncated };
}

/** `sol_log_data` logs each of its slices as base64, separated by spaces; the payload is their concatenation. */
function decodeDataLine(text: string, lineIndex: number): Uint8Array {
  const parts = text.split(" ").filter((part) => part !== "");
  const chunks = parts.map((part) => {
    if (!BASE64.test(part)) throw new EventLogError(lineIndex, `${JSON.stringify(part)} is not base64`);
    return getBase64Encoder().encode(part);
  });
  const data = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    data.set(chunk, offset);
    offset += chunk.length;
  }
  return data;
}
