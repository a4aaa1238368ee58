/**
 * Spend-policy refusals as the API reports them: `400 invalid_policy` with `param` naming the
 * field. The SDK's codec refuses everything the program would (and more) before anything is sent;
 * the program's own validation errors are mapped too, in case a policy reaches it anyway.
 */
import { PolicyValidationError } from "@cpay/sdk";
import { ApiError } from "../core/api-error";

/**
 * Runs `encode` (an SDK policy encoder) and turns a `PolicyValidationError` into
 * `400 invalid_policy`; `prefix` is where the policy sits in the request body (`spend_policy.` on
 * creation, nothing for a PATCH body), so `param` is the body path of the offending field.
 */
export function encodePolicyOrRefuse<T>(encode: () => T, prefix: "spend_policy." | ""): T {
  try {
    return encode();
  } catch (error) {
    if (error instanceof PolicyValidationError) {
      throw new ApiError("invalid_policy", `${prefix}${error.message}`, `${prefix}${error.field}`);
    }
    throw error;
  }
}

/** The policy field each of the program's validation errors is about (policy_validation.rs). */
const FIELD_OF_PROGRAM_ERROR: Readonly<Record<string, string>> = {
  InvalidActiveHours: "active_hours",
  InvalidApprovalWindow: "approval_window_seconds",
  InvalidMint: "assets",
  TooManyMints: "assets",
  InvalidRecipientPattern: "allowed_recipients",
  TooManyRecipientPatterns: "allowed_recipients",
};

/** `400 invalid_policy` for a program validation error by name, or null for any other error. */
export function invalidPolicyOfProgramError(name: string, prefix: "spend_policy." | ""): ApiError | null {
  const field = FIELD_OF_PROGRAM_ERROR[name];
  if (field === undefined) return null;
  return new ApiError(
    "invalid_policy",
    `${prefix}${field} was refused by the agent-policy program (${name})`,
    `${prefix}${field}`,
  );
}
