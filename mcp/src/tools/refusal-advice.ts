/**
 * What a model can do after a refusal, by the refusal's code (the `/v1` error codes, which both
 * servers answer with) and, for a spend-policy refusal, by the rule that refused it (its `param`).
 * A refusal's own message says what happened; this says what to do next.
 */

const BY_POLICY_RULE: Readonly<Record<string, string>> = {
  per_transaction_limit_usdg:
    "Pay a smaller amount (remaining_budget or preview_payment say what fits), or ask the agent's owner to raise per_transaction_limit_usdg.",
  daily_limit_usdg:
    "Pay less or wait for the next UTC day (remaining_budget says what is left today), or ask the agent's owner to raise daily_limit_usdg.",
  allowed_recipients:
    "Pay only a recipient the policy allows (get_policy lists allowed_recipients), or ask the agent's owner to add this one.",
  assets:
    "Pay in an asset the policy allows (get_policy lists them), or ask the agent's owner to allow this one.",
  active_hours: "Pay again within the policy's active_hours (UTC; get_policy shows them).",
  confidential: "Do what the message says, then try again.",
  status: "The agent's owner must make the agent active again; nothing can be paid until then.",
};

const BY_CODE: Readonly<Record<string, string>> = {
  invalid_request: "Fix the argument the message names and call again.",
  invalid_policy: "Fix the policy field the message names and call again.",
  recipient_not_found:
    'Check the recipient: an "@handle" that exists, "@owner/agent", or a base58 Solana address.',
  recipient_not_confidential_ready:
    "The recipient cannot receive confidential payments yet: pay with confidential false, or ask them to set up their account.",
  insufficient_balance:
    "The balance does not cover this payment: pay less, or ask the account's owner to add funds.",
  unsupported_asset: 'Pay in "USDG".',
  kyc_required: "The account's owner must complete identity verification (KYC) before it can pay.",
  reserve_budget_exhausted:
    "The account's budget for network fees is spent for now; ask the account's owner, or try again later.",
  rate_limited: "Wait the number of seconds the message names, then call again with the same arguments.",
  idempotency_key_reused:
    "This idempotency_key was used for a different request: repeat that request's exact arguments, or use a new key for a new payment.",
  idempotency_in_progress:
    "The first call with this idempotency_key is still running: call again shortly with the same arguments.",
  chain_unavailable:
    "The blockchain could not be reached: call again with the same arguments and idempotency_key; it pays at most once.",
  transfer_outcome_unknown:
    "Whether it went through is not known yet: call again with the same arguments and idempotency_key (it pays at most once), or follow it with get_transfer.",
  agent_key_not_allowed: "Only the owner's API key can use this tool; ask the agent's owner to do it.",
  agent_key_required: "Only an agent's own API key can use this tool.",
  not_agent_owner: "This transaction belongs to another owner's agent; only its owner can decide it.",
  agent_not_found: "Check the agent's id with list_agents.",
  transfer_not_found: 'Check the transfer id ("tr_..."); list_transfers lists this account\'s transfers.',
  transaction_not_found:
    'Check the transaction id ("tx_..."); list_pending_approvals lists the waiting ones.',
  transaction_expired:
    "The approval window has passed: the payment was not made. The agent can pay again if still needed.",
  transaction_not_pending: "It was decided already: get_transfer shows what happened.",
  live_mode_unavailable: "This service has no live environment: use a svc_test_ API key.",
  confirmation_declined: "The human did not confirm this payment. Do not pay it unless they ask you again.",
  confirmation_unavailable:
    "The human could not be asked to confirm this payment (the client does not support it, or nobody answered in time). Ask them directly before trying again.",
  transfer_failed: "To try this payment again, call pay with a NEW idempotency_key.",
  approval_required:
    "Nothing was paid. Do not retry: tell the agent's owner, who can buy it themselves or raise hitl_threshold_usdg.",
  recipient_account_missing: "Nothing was paid. The seller must open its token account for this asset first.",
  unpayable_requirement: "Nothing was paid. This agent cannot pay what the server asks; do not retry.",
  payment_not_accepted:
    "Do not call again: check list_transfers for the transfer the message names before paying again.",
};

const DEFAULT_ADVICE = "Nothing was changed by this call.";

/** The next step for a refusal with `code` (and, for `policy_violation`, its rule `param`). */
export function refusalAdvice(code: string, param: string | undefined): string {
  if (code === "policy_violation") {
    return `Nothing was paid. ${(param === undefined ? undefined : BY_POLICY_RULE[param]) ?? DEFAULT_ADVICE}`;
  }
  return BY_CODE[code] ?? DEFAULT_ADVICE;
}
