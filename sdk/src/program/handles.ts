/**
 * Handles: the names accounts and agents are known by (`@acme`, `@acme/payroll-bot`). The program
 * only accepts normalised bytes, so every handle that reaches it goes through here first.
 *
 * Normalisation, in this order: trim surrounding whitespace, strip ONE leading `@`, lower-case the
 * ASCII letters A-Z (nothing else is case-folded: any non-ASCII character is then refused).
 * Grammar of the result (programs/agent-policy/README.md, "Handles"):
 * - account handle: 1-32 bytes of labels `[a-z0-9_-]+` joined by `.` (`acme`, `pay.acme`);
 * - agent handle: `<account handle>/<name>`, `name` 1-32 bytes of `[a-z0-9_-]`, 64 bytes in all.
 */

/** Why a handle was refused. */
export type HandleErrorCode =
  | "empty"
  | "invalid_character"
  | "empty_label"
  | "too_long"
  | "not_an_agent_handle";

/** A handle that does not normalise to the grammar; `code` says why, `input` is what was given. */
export class HandleValidationError extends Error {
  override readonly name = "HandleValidationError";
  readonly code: HandleErrorCode;
  readonly input: string;

  constructor(code: HandleErrorCode, input: string, detail: string) {
    super(`invalid handle ${JSON.stringify(input)}: ${detail}`);
    this.code = code;
    this.input = input;
  }
}

export const MAX_ACCOUNT_HANDLE_BYTES = 32;
export const MAX_AGENT_NAME_BYTES = 32;
export const MAX_AGENT_HANDLE_BYTES = 64;

const ACCOUNT_HANDLE_CHARACTER = /^[a-z0-9_.-]$/;
const AGENT_NAME_CHARACTER = /^[a-z0-9_-]$/;

/** An agent handle split into its parts, all normalised. */
export interface AgentHandle {
  /** `owner/name`, the bytes the program hashes for the agent and its Handle PDA. */
  readonly handle: string;
  readonly owner: string;
  readonly name: string;
}

/**
 * Applies the normalisation steps only (trim, strip one leading `@`, lower-case ASCII) without
 * checking the grammar. Use the `normalize*` functions below for anything sent to the program.
 */
export function normalizeHandleText(input: string): string {
  const trimmed = input.trim();
  const withoutAt = trimmed.startsWith("@") ? trimmed.slice(1) : trimmed;
  return withoutAt.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * Normalises an account handle (`@Acme` -> `acme`, `Pay.ACME` -> `pay.acme`) and checks its
 * grammar: 1-32 bytes of `[a-z0-9_-]` labels joined by `.`. Throws a `HandleValidationError`
 * (`empty`, `invalid_character`, `empty_label`, `too_long`) otherwise.
 */
export function normalizeAccountHandle(input: string): string {
  const handle = normalizeHandleText(input);
  checkAccountHandle(handle, input);
  return handle;
}

/**
 * Normalises an agent name (the part after `/`: `Payroll-Bot` -> `payroll-bot`; a leading `@` is
 * stripped like for any handle) and checks it is 1-32 bytes of `[a-z0-9_-]`.
 */
export function normalizeAgentName(input: string): string {
  const name = normalizeHandleText(input);
  checkAgentName(name, input);
  return name;
}

/**
 * Normalises an agent handle (`@Acme/Payroll-Bot` -> `acme/payroll-bot`) and checks both parts and
 * the 64-byte total. Throws `not_an_agent_handle` when there is no `/`, or the codes of the
 * offending part.
 */
export function parseAgentHandle(input: string): AgentHandle {
  const handle = normalizeHandleText(input);
  const slash = handle.indexOf("/");
  if (slash < 0) {
    throw new HandleValidationError(
      "not_an_agent_handle",
      input,
      "an agent handle is `<owner handle>/<name>`",
    );
  }
  const owner = handle.slice(0, slash);
  const name = handle.slice(slash + 1);
  checkAccountHandle(owner, input);
  checkAgentName(name, input);
  if (handle.length > MAX_AGENT_HANDLE_BYTES) {
    throw new HandleValidationError("too_long", input, `longer than ${MAX_AGENT_HANDLE_BYTES} bytes`);
  }
  return { handle, owner, name };
}

/** `parseAgentHandle(input).handle`: the normalised `owner/name`. */
export function normalizeAgentHandle(input: string): string {
  return parseAgentHandle(input).handle;
}

/**
 * Normalises either kind of handle: an agent handle when it contains `/`, an account handle
 * otherwise. What recipient names and Handle PDAs take (agents have Handle accounts too).
 */
export function normalizeHandle(input: string): string {
  return normalizeHandleText(input).includes("/")
    ? normalizeAgentHandle(input)
    : normalizeAccountHandle(input);
}

/** Joins a normalised owner handle and agent name into the agent handle, checking the result. */
export function agentHandleOf(ownerHandle: string, agentName: string): string {
  return normalizeAgentHandle(`${normalizeAccountHandle(ownerHandle)}/${normalizeAgentName(agentName)}`);
}

/**
 * Checks an already normalised account handle against the grammar (no normalisation: what a
 * suffix pattern `*.<handle>` and the program require byte for byte).
 */
export function checkAccountHandle(handle: string, input: string = handle): void {
  if (handle.length === 0) throw new HandleValidationError("empty", input, "the handle is empty");
  checkCharacters(handle, ACCOUNT_HANDLE_CHARACTER, input, '(letters, digits, "_", "-" and "." only)');
  if (handle.split(".").some((label) => label.length === 0)) {
    throw new HandleValidationError("empty_label", input, 'a "." must separate two non-empty labels');
  }
  if (handle.length > MAX_ACCOUNT_HANDLE_BYTES) {
    throw new HandleValidationError("too_long", input, `longer than ${MAX_ACCOUNT_HANDLE_BYTES} bytes`);
  }
}

/** Refuses the first character of `text` that `allowed` does not match, naming it and `rule`. */
function checkCharacters(text: string, allowed: RegExp, input: string, rule: string): void {
  for (const character of text) {
    if (!allowed.test(character)) {
      throw new HandleValidationError(
        "invalid_character",
        input,
        `${JSON.stringify(character)} is not allowed ${rule}`,
      );
    }
  }
}

function checkAgentName(name: string, input: string): void {
  if (name.length === 0) throw new HandleValidationError("empty", input, "the agent name is empty");
  checkCharacters(name, AGENT_NAME_CHARACTER, input, 'in an agent name (letters, digits, "_" and "-" only)');
  if (name.length > MAX_AGENT_NAME_BYTES) {
    throw new HandleValidationError(
      "too_long",
      input,
      `the agent name is longer than ${MAX_AGENT_NAME_BYTES} bytes`,
    );
  }
}
