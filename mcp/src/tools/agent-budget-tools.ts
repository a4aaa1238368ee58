/**
 * A self-custody agent's own figures, read from the chain and decrypted with its keys in its own
 * process (the local server): nobody else, the service included, can read its confidential ones.
 */
import { readOnlyTool } from "./tool-definition";

export const remainingBudgetTool = readOnlyTool("remaining_budget", "Remaining budget today", {}, [
  'What this agent may still spend today (the UTC day of the chain\'s clock), in USDG decimal strings: "daily_remaining" (its daily limit less today\'s public and confidential spend) and "largest_payment_now" (the most one payment can be now), plus "approval_threshold" (payments above it are held for a human).',
  "Confidential spend is decrypted locally with the agent's keys.",
]);

export const balanceTool = readOnlyTool("balance", "Balance", {}, [
  'This agent\'s USDG balance, decrypted locally with its own keys, in decimal strings: "public" (readable by anyone on-chain), "confidential_available" (what confidential payments can spend now) and "confidential_pending" (received, not yet available).',
]);

export const getPolicyTool = readOnlyTool("get_policy", "Spend policy", {}, [
  "The spend policy this agent's owner set, as the chain enforces it: daily and per-transaction limits, the human-approval threshold, allowed assets and recipients, active hours (UTC) and how long a held payment waits.",
  "Only the owner can change it.",
]);
