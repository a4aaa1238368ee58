/**
 * The account behind an API key and, for an owner, its agents and their spend policies (the remote
 * server). Balances show only whether each is non-zero: an amount is shown by the service only
 * against a decryption proof made with the account's secret, which never travels to a model.
 */
import { z } from "zod";
import { amountField, idField } from "./fields";
import { defineTool, readOnlyTool } from "./tool-definition";

const agentIdField = idField("acct", 'The agent\'s account id, "acct_..." as list_agents answers it.');

/** A policy limit, in USDG: the same decimal grammar as a payment's amount. */
const limitField = (what: string) =>
  amountField.optional().describe(`${what}, in USDG, as a decimal string such as "25" or "12.50".`);

export const getAccountTool = readOnlyTool("get_account", "Account", {}, [
  "The account this API key belongs to: its id, @handle, type (personal, business or agent), KYC status and public key.",
]);

export const getBalancesTool = readOnlyTool("get_balances", "Balance indicators", {}, [
  "Whether each of the account's balances (public and confidential USDG) is non-zero.",
  "Amounts are not shown here: they are readable only with the account's own keys.",
]);

export const listAgentsTool = readOnlyTool("list_agents", "List agents", {}, [
  "The agent accounts under this (owner) account. Needs the owner's API key, not an agent's.",
]);

export const getSpendPolicyTool = readOnlyTool(
  "get_spend_policy",
  "An agent's spend policy",
  { agent_id: agentIdField },
  [
    "One of this owner's agents' spend policy, read from the chain: limits, approval threshold, assets, recipients, active hours.",
    "Needs the owner's API key.",
  ],
);

export const updateSpendPolicyTool = defineTool(
  "update_spend_policy",
  "Change an agent's spend policy",
  // Each change is a new on-chain policy version: not idempotent, and it can loosen or tighten limits.
  { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  {
    agent_id: agentIdField,
    daily_limit_usdg: limitField("The most the agent may spend per UTC day"),
    per_transaction_limit_usdg: limitField("The most one payment may be"),
    hitl_threshold_usdg: limitField("Payments above this are held for the owner's approval"),
    assets: z.array(z.string()).optional().describe('The assets the agent may pay in, e.g. ["USDG"].'),
    allowed_recipients: z
      .array(z.string())
      .optional()
      .describe(
        'Who the agent may pay: handles without "@" ("merchant"), "*.suffix" for every handle ending in .suffix, or base58 addresses. An empty list allows anyone.',
      ),
    active_hours: z
      .string()
      .optional()
      .describe('When the agent may pay, "HH:MM-HH:MM" in UTC (may wrap midnight); equal ends mean all day.'),
    approval_window_seconds: z
      .number()
      .int()
      .optional()
      .describe("How long a held payment waits for approval, in seconds (1 to 604800)."),
  },
  [
    "Change some fields of one of this owner's agents' spend policy, on-chain (only the fields given change); answers the policy now in force.",
    "Needs the owner's API key.",
  ],
);
