/**
 * What a tool answers, in the MCP result shape: a sentence for the model, the answer as JSON (text
 * and `structuredContent`, for clients that read either), or, for a refusal, a tool error
 * (`isError: true`) naming the code, the rule and the next step. A refusal is never a protocol error:
 * a model sees it and can act on it. Nothing here adds a figure to what it is given.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { refusalAdvice } from "./refusal-advice";

/** A refusal as both servers report it: the `/v1` error shape. */
export interface Refusal {
  readonly code: string;
  readonly message: string;
  /** The field or policy rule it is about. */
  readonly param?: string;
}

/** A successful answer: `summary` for the model, `body` as the data. */
export function toolAnswer(summary: string, body: Record<string, unknown>): CallToolResult {
  return {
    content: [
      { type: "text", text: summary },
      { type: "text", text: JSON.stringify(body) },
    ],
    structuredContent: body,
  };
}

/** A refusal: `isError`, the code and rule named, and what to do next. */
export function toolRefusal(refusal: Refusal): CallToolResult {
  const rule =
    refusal.param === undefined
      ? ""
      : ` (${refusal.code === "policy_violation" ? "rule" : "field"}: ${refusal.param})`;
  const error = {
    code: refusal.code,
    message: refusal.message,
    ...(refusal.param === undefined ? {} : { param: refusal.param }),
  };
  return {
    content: [
      {
        type: "text",
        text: `Refused: ${refusal.code}${rule}: ${refusal.message.replace(/\.$/, "")}. ${refusalAdvice(refusal.code, refusal.param)}`,
      },
    ],
    structuredContent: { error },
    isError: true,
  };
}

/** A failure that is nobody's refusal: no detail of it reaches the model (no message, no stack). */
export const UNEXPECTED_FAILURE: Refusal = {
  code: "internal_error",
  message:
    "an unexpected error occurred; if this was a payment, call again with the same idempotency_key (it pays at most once) or check get_transfer",
};
