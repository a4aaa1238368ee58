/**
 * Recipient patterns: the API's strings <-> the program's `RecipientPattern`.
 * - a base58 address (32 bytes) -> `Address`: matches that token account or its owner wallet;
 * - `*.` + account handle (`*.acme`) -> `Suffix("acme")`: matches `pay.acme`, `x.pay.acme`, not
 *   `acme`;
 * - otherwise a handle or agent handle, normalised like any handle (`@Acme` -> `acme`) -> `Name`.
 * A string that is a valid address is an address even if it also fits the handle grammar (only
 * possible for 32-character strings of base58 digits and lower-case letters).
 */
import { type Address, isAddress } from "@solana/kit";
import type { RecipientPattern } from "../generated";
import { checkAccountHandle, HandleValidationError, normalizeHandle } from "./handles";

/** A refused pattern; the message says which rule it broke. */
export class RecipientPatternError extends Error {
  override readonly name = "RecipientPatternError";
  readonly code = "malformed_pattern";
}

const SUFFIX_PREFIX = "*.";
const ZERO_ADDRESS = "11111111111111111111111111111111";

/**
 * Parses one API pattern into the program's enum. Throws a `RecipientPatternError` for a
 * non-string, `*`, `*.` with a malformed handle, or a name outside the handle grammar.
 */
export function parseRecipientPattern(value: unknown): RecipientPattern {
  if (typeof value !== "string") throw new RecipientPatternError("a recipient pattern is a string");
  const text = value.trim();
  if (isAddress(text)) {
    // The all-zero address (the System program) can own no token account and the program refuses
    // it as a pattern (InvalidRecipientPattern): refuse it here, before anything is sent.
    if (text === ZERO_ADDRESS)
      throw new RecipientPatternError(`${JSON.stringify(value)}: the zero address is not a recipient`);
    return { __kind: "Address", fields: [text as Address] };
  }
  try {
    if (text.startsWith(SUFFIX_PREFIX)) {
      // The suffix is compared byte for byte by the program: lower-case it, strip nothing else.
      const suffix = text.slice(SUFFIX_PREFIX.length).replace(/[A-Z]/g, (letter) => letter.toLowerCase());
      checkAccountHandle(suffix, value);
      return { __kind: "Suffix", fields: [suffix] };
    }
    if (text.includes("*")) {
      throw new RecipientPatternError(
        `${JSON.stringify(value)}: a wildcard is only allowed as a leading "*."`,
      );
    }
    return { __kind: "Name", fields: [normalizeHandle(text)] };
  } catch (error) {
    if (error instanceof HandleValidationError) {
      throw new RecipientPatternError(`${JSON.stringify(value)}: ${error.message}`);
    }
    throw error;
  }
}

/** Formats a pattern back to its API spelling: the name, `*.` + suffix, or the base58 address. */
export function formatRecipientPattern(pattern: RecipientPattern): string {
  switch (pattern.__kind) {
    case "Name":
      return pattern.fields[0];
    case "Suffix":
      return `${SUFFIX_PREFIX}${pattern.fields[0]}`;
    case "Address":
      return pattern.fields[0];
  }
}
