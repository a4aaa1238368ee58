/**
 * A self-custody agent's own figures, read from the chain and decrypted with its keys in its own
 * process (the local server): nobody else, the service included, can read its confidential ones.
 */
import { z } from "zod";
import { READ_ONLY, type ToolDefinition } from "./tool-definition";

export const remainingBudgetTool = {
  name: "remaining_budget",
  title: "Remaining budget today",
  description:
    'What this agent may still spend today (the UTC day of the chain\'s clock), in USDG decimal strings: "daily_remaining" (its daily limit less today\'s public and confidential spend) and "largest_payment_now" (the most one payment can be now), plus "approval_threshold" (payments above it are held for a human). Confidential spend is decrypted locally with the agent\'s keys.',
  inputSchema: z.strictObject({}),
  annotations: READ_ONLY,
} as const satisfies ToolDefinition;

export const balanceTool = {
  name: "balance",
  title: "Balance",
  description:
    'This agent\'s USDG balance, decrypted locally with its own keys, in decimal strings: "public" (readable by anyone on-chain), "confidential_available" (what confidential payments can spend now) and "confidential_pending" (received, not yet available).',
  inputSchema: z.strictObject({}),
  annotations: READ_ONLY,
} as const satisfies ToolDefinition;

export const getPolicyTool = {
  name: "get_policy",
  title: "Spend policy",
  description:
    "The spend policy this agent's owner set, as the chain enforces it: daily and per-transaction limits, the human-approval threshold, allowed assets and recipients, active hours (UTC) and how long a held payment waits. Only the owner can change it.",
  inputSchema: z.strictObject({}),
  annotations: READ_ONLY,
} as const satisfies ToolDefinition;
