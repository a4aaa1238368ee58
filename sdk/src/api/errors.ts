/**
 * Every error code the `/v1` API returns, with its HTTP status: one table for the server's
 * `ApiError`, the typed client and the OpenAPI document (STYLE 6). The spec's codes (section 7)
 * come first; the rest cover what the spec leaves open (DESIGN section 7). Append only.
 */
export const API_ERRORS = {
  // Spec section 7.
  invalid_request: { status: 400, description: "Malformed body, query, path or header; `param` names it." },
  insufficient_balance: { status: 402, description: "The account lacks enough of the requested asset." },
  recipient_not_found: { status: 404, description: "No account for the given handle." },
  recipient_not_confidential_ready: {
    status: 422,
    description: "The recipient cannot receive confidentially; retry with `confidential: false`.",
  },
  invalid_policy: {
    status: 400,
    description: "Spend-policy fields fail validation; `param` names the field.",
  },
  not_agent_owner: { status: 403, description: "The authenticated account does not own the agent." },
  transaction_not_found: {
    status: 404,
    description: "No held transaction of the caller's agents with the given id.",
  },
  transaction_expired: { status: 409, description: "The approval window has passed." },
  unauthorized: { status: 401, description: "Missing, malformed, unknown or revoked API key." },
  kyc_required: { status: 403, description: "Identity verification not completed." },
  decryption_proof_invalid: { status: 422, description: "The proof does not match the balance ciphertext." },
  // Where the spec is silent.
  not_found: { status: 404, description: "No such route, or no such resource visible to this key." },
  transfer_not_found: { status: 404, description: "No transfer with this id for this account." },
  agent_not_found: { status: 404, description: "No agent with this id." },
  method_not_allowed: { status: 405, description: "The route exists but not with this method." },
  agent_key_not_allowed: { status: 403, description: "An agent's key cannot use this endpoint." },
  live_mode_unavailable: {
    status: 403,
    description: "A `svc_live_` key was used but mainnet-beta is not configured for this service.",
  },
  policy_violation: {
    status: 422,
    description: "The agent's on-chain spend policy refused the transfer; `param` names the rule.",
  },
  transaction_not_pending: {
    status: 409,
    description: "The held transaction was already approved or rejected.",
  },
  agent_exists: { status: 409, description: "The owner already has an agent with this name." },
  unsupported_asset: { status: 400, description: "The asset is not one this service moves." },
  idempotency_key_reused: {
    status: 409,
    description: "The `Idempotency-Key` was used with a different request in the last 24 h.",
  },
  idempotency_in_progress: {
    status: 409,
    description: "A request with this `Idempotency-Key` is still being processed; retry shortly.",
  },
  payload_too_large: { status: 413, description: "The request body exceeds 64 KiB." },
  unsupported_media_type: {
    status: 415,
    description:
      "A request body must be sent with `Content-Type: application/json` (UTF-8); nothing was read.",
  },
  rate_limited: {
    status: 429,
    description:
      "Too many requests for this key, or too many failed authentications from this client address; see `RateLimit-*` and `Retry-After`.",
  },
  chain_unavailable: {
    status: 503,
    description:
      "The Solana cluster could not be reached, or refused or dropped the transaction. Retry with the same Idempotency-Key; a transfer whose outcome was unknown is settled from the chain and never made twice.",
  },
  webhook_not_found: { status: 404, description: "No webhook subscription with this id for this account." },
  event_not_found: { status: 404, description: "No event with this id for this subscription's account." },
  invalid_webhook_url: {
    status: 400,
    description:
      "The URL is not https, carries credentials, does not resolve, or resolves to a non-public address.",
  },
  transfer_outcome_unknown: {
    status: 502,
    description:
      "The transfer was submitted but the cluster's answer was lost; it settles by itself — read it with GET /v1/transfers/{id} (the id is in the message). Retrying with the same Idempotency-Key returns this answer again, never a second transfer.",
  },
  agent_key_required: { status: 403, description: "Only an agent's own key can use this endpoint." },
  agent_self_custody: {
    status: 409,
    description: "The agent signs its own transactions; send them through POST /v1/relay.",
  },
  relay_transaction_refused: {
    status: 422,
    description:
      "A relayed transaction uses the fee payer for more than fees and rent, or is not this agent's; nothing was signed.",
  },
  relay_fee_cap_reached: {
    status: 429,
    description: "The agent's daily allowance of fees paid by the service is spent; nothing was signed.",
  },
  webhook_limit_reached: {
    status: 409,
    description:
      "The account already has the maximum number of live webhook subscriptions; delete one first. Nothing was created.",
  },
  reserve_budget_exhausted: {
    status: 429,
    description:
      "The service's fee reserve would pass one of the account's bounds (an agent's spend counts to its owner): what it may lose a day (fees, and rent that may not come back), or the rent it may have advanced at once and not got back yet (receipts and holds, back when they close); nothing was signed.",
  },
  internal_error: { status: 500, description: "An unexpected failure; nothing was changed." },
  agent_limit_reached: {
    status: 409,
    description:
      "The owner already has as many agents as this service allows per owner; nothing was created or paid.",
  },
  confidential_account_not_approved: {
    status: 409,
    description:
      "The account's confidential USDG account awaits the issuer's approval (the mint approves each account itself); nothing was sent or paid. Send with `confidential: false`, or retry once GET /v1/accounts/me shows `confidential_status: ready`.",
  },
  session_required: {
    status: 403,
    description: "This endpoint is for a signed-in dashboard session (its cookie); an API key cannot use it.",
  },
  session_expired: {
    status: 401,
    description:
      "The dashboard session ended (idle too long, too old, signed out or its passkey revoked); sign in again.",
  },
  csrf_token_invalid: {
    status: 403,
    description:
      "A request made with the session cookie other than GET needs the session's `X-CSRF-Token` header; nothing was changed.",
  },
  enrollment_link_invalid: {
    status: 404,
    description: "The enrollment link is unknown, already used or expired; ask the operator for a new one.",
  },
  passkey_not_recognized: {
    status: 401,
    description:
      "No passkey of this service's environment accepted the sign-in: unknown or revoked here, or its answer did not verify (origin, RP ID, challenge, user verification, signature or counter). One answer for all of these, so it never tells which credentials are registered; the reason is in the service's log. Nothing was changed.",
  },
  passkey_verification_failed: {
    status: 401,
    description:
      "The sign-in or enrollment step's challenge is unknown, used, expired or was asked for by another browser, or a new passkey's registration did not verify; start the step again. Nothing was changed.",
  },
  passkey_not_found: { status: 404, description: "No live passkey with this id for this account." },
  key_not_found: { status: 404, description: "No API key with this id for this account." },
  cross_site_request: {
    status: 403,
    description:
      "A browser request from a page of another site than the dashboard's (its `Origin`, or without one its `Sec-Fetch-Site`), made with the session cookie or to a sign-in or enrollment step; nothing was changed. API-key requests are not checked.",
  },
} as const satisfies Record<string, { readonly status: number; readonly description: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;

/** The HTTP status of an error code. */
export function statusOfApiError(code: ApiErrorCode): number {
  return API_ERRORS[code].status;
}
