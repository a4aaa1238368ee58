/**
 * The local server's failures read as refusals (tools/serve-tool.ts): the service's answers (an
 * `ApiRequestError`, also as the cause of a confidential step the relay refused: its code, message
 * and param, as `/v1` gives them), a spend-policy refusal the SDK makes before proving anything
 * (`agentSpendRefusalOf`), an unknown recipient, a bad amount, a memo the payment cannot carry (in
 * `/v1`'s words), a local confirmation refused, and the
 * SDK's confidential-path refusals by their code. Anything else is unexpected.
 */
import { AmountError } from "@cpay/sdk";
import { MemoRefusedError, RecipientNotFoundError } from "@cpay/sdk/agent-client";
import { agentSpendRefusalOf } from "@cpay/sdk/agent-confidential";
import { ApiRequestError } from "@cpay/sdk/api";
import { ConfidentialError } from "@cpay/sdk/confidential";
import type { Refusal } from "../tools/tool-results";

/** A refusal this server decides itself (a bad argument, the human's answer). */
export class LocalRefusal extends Error {
  override readonly name = "LocalRefusal";
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/** The service's own wording for the SDK's confidential-path codes a caller can act on. */
const CONFIDENTIAL_CODES: Readonly<Record<string, string>> = {
  insufficient_confidential_balance: "insufficient_balance",
  recipient_not_confidential_ready: "recipient_not_confidential_ready",
  invalid_amount: "invalid_request",
};

export function localRefusalOf(error: unknown): Refusal | null {
  if (error instanceof LocalRefusal) return error.refusal;
  const answered = apiRefusalIn(error);
  if (answered !== null) return answered;
  const policy = agentSpendRefusalOf(error);
  if (policy !== null) return { code: "policy_violation", ...policy };
  if (error instanceof RecipientNotFoundError) {
    return { code: "recipient_not_found", message: error.message, param: "to" };
  }
  if (error instanceof MemoRefusedError)
    return { code: error.code, message: error.message, param: error.param };
  if (error instanceof AmountError)
    return { code: "invalid_request", message: `amount ${error.message}`, param: "amount" };
  if (error instanceof ConfidentialError) {
    const code = CONFIDENTIAL_CODES[error.code];
    if (code !== undefined) return { code, message: error.message };
  }
  return null;
}

/** The service's refusal in `error` or its causes: `/v1`'s code, message and param. */
function apiRefusalIn(error: unknown): Refusal | null {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++) {
    if (cause instanceof ApiRequestError) {
      // The error's message is "<status> <code>: <message>"; the refusal carries the message alone.
      const prefix = `${cause.status} ${cause.code}: `;
      const message = cause.message.startsWith(prefix) ? cause.message.slice(prefix.length) : cause.message;
      return { code: cause.code, message, ...(cause.param === undefined ? {} : { param: cause.param }) };
    }
    cause = cause.cause;
  }
  return null;
}
