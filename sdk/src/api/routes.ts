/**
 * The `/v1` endpoints as data: method, path, request and response contracts, the errors each can
 * return and who may call it. The server mounts its handlers by these ids, the typed client calls
 * by them, and the OpenAPI document is generated from them, so the three cannot drift.
 */
import { z } from "zod";
import { ZAccount, ZBalanceProofRequest, ZBalances, ZBalancesRequest } from "./accounts";
import {
  ZAgentBudget,
  ZAgentList,
  ZCreateAgentRequest,
  ZCreatedAgent,
  ZSpendPolicy,
  ZSpendPolicyUpdate,
} from "./agents";
import { ZAgentTransaction, ZPendingList } from "./approvals";
import { zId } from "./common";
import {
  ZEnrollmentOptions,
  ZEnrollmentOptionsRequest,
  ZEnrollmentRequest,
  ZPasskey,
  ZPasskeyList,
  ZPasskeyParams,
  ZSessionView,
  ZSignedOut,
  ZSignedOutEverywhere,
  ZSignInOptions,
  ZSignInOptionsRequest,
  ZSignInRequest,
  ZWrappedSecretAnswer,
  ZWrappedSecretRequest,
} from "./dashboard";
import type { ApiErrorCode } from "./errors";
import { ZCreatedKey, ZCreateKeyRequest, ZKeyList, ZKeyParams, ZKeyView } from "./keys";
import { ZRelayInfo, ZRelayRequest, ZRelayResponse } from "./relay";
import {
  ZCreateTransferRequest,
  ZListTransfersQuery,
  ZTransfer,
  ZTransferDetail,
  ZTransferList,
} from "./transfers";
import {
  ZCreateWebhookRequest,
  ZDeletedWebhook,
  ZDelivery,
  ZDeliveryList,
  ZDeliveryListQuery,
  ZRotatedWebhookSecret,
  ZWebhookList,
  ZWebhookWithSecret,
} from "./webhooks";

/**
 * Who may call a route: `any` valid key or session, only a non-agent (owner) account's key or a
 * session, only an agent's key, only a dashboard session (`session`: an API key gets
 * `403 session_required`), or anyone with no credential (`public`: the sign-in steps). A request with
 * an `Authorization` header is judged by it alone; without one, by the `cpay_session` cookie. The
 * `/v1/dashboard/` routes also take the `X-Cpay-Environment` header (environment.ts): the public
 * ones have no credential that names their environment.
 */
export type RouteAudience = "any" | "owner" | "agent" | "session" | "public";

export interface RouteContract {
  readonly method: "get" | "post" | "put" | "patch" | "delete";
  /** Express-style path: `:name` segments are validated by `params`. */
  readonly path: string;
  readonly summary: string;
  readonly audience: RouteAudience;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly response: { readonly status: number; readonly schema: z.ZodType };
  /** Errors beyond those every route can return (401, 429, 400 for a malformed request, 500). */
  readonly errors: readonly ApiErrorCode[];
  /**
   * The response field holding a secret shown once. An `Idempotency-Key` replay never carries it:
   * the field is `null` and `secret_already_delivered: true` says why (the stored answer never held it).
   */
  readonly shownOnce?: string;
  /**
   * A POST that changes nothing (a read whose input cannot travel in a GET). Its answer is never
   * stored for `Idempotency-Key` replays: it may carry an amount, and a read needs no replay.
   */
  readonly readOnly?: true;
}

/** A POST taking an `Idempotency-Key`: its key reused with another body, or its first use still running. */
const IDEMPOTENCY_ERRORS = ["idempotency_key_reused", "idempotency_in_progress"] as const;
/** A dashboard-session route: no session, or an expired one. */
const SESSION_ERRORS = ["session_required", "session_expired"] as const;
/** A session route that changes something: also its CSRF token. */
const SESSION_CHANGE_ERRORS = [...SESSION_ERRORS, "csrf_token_invalid"] as const;
/** Deciding a held agent transaction: whose it is, and whether it is still there to decide. */
const DECISION_ERRORS = [
  "not_agent_owner",
  "transaction_not_found",
  "transaction_expired",
  "transaction_not_pending",
] as const;

const ZTransferParams = z.strictObject({ transfer_id: zId("tr") });
const ZAgentParams = z.strictObject({ account_id: zId("acct") });
const ZAgentTransactionParams = z.strictObject({ transaction_id: zId("tx") });
const ZWebhookParams = z.strictObject({ webhook_id: zId("wh") });
const ZReplayParams = z.strictObject({ webhook_id: zId("wh"), event_id: zId("evt") });

export const API_ROUTES = {
  getRelayInfo: {
    method: "get",
    path: "/v1/relay",
    summary: "The fee payer and a recent blockhash for transactions a self-custody agent signs",
    audience: "agent",
    response: { status: 200, schema: ZRelayInfo },
    errors: ["agent_key_required", "live_mode_unavailable"],
  },
  relayTransactions: {
    method: "post",
    path: "/v1/relay",
    summary: "Submit transactions a self-custody agent signed; the service pays the fees",
    audience: "agent",
    body: ZRelayRequest,
    response: { status: 201, schema: ZRelayResponse },
    errors: [
      "agent_key_required",
      "relay_transaction_refused",
      "relay_fee_cap_reached",
      "kyc_required",
      "reserve_budget_exhausted",
      "policy_violation",
      "insufficient_balance",
      "live_mode_unavailable",
      ...IDEMPOTENCY_ERRORS,
      "chain_unavailable",
    ],
  },
  createTransfer: {
    method: "post",
    path: "/v1/transfers",
    summary: "Create a transfer to an @handle or a base58 address (confidential by default)",
    audience: "any",
    body: ZCreateTransferRequest,
    response: { status: 201, schema: ZTransfer },
    errors: [
      "insufficient_balance",
      "recipient_not_found",
      "recipient_not_confidential_ready",
      "confidential_account_not_approved",
      "unsupported_asset",
      "reserve_budget_exhausted",
      "policy_violation",
      "kyc_required",
      "live_mode_unavailable",
      ...IDEMPOTENCY_ERRORS,
      "chain_unavailable",
      "transfer_outcome_unknown",
    ],
  },
  getTransfer: {
    method: "get",
    path: "/v1/transfers/:transfer_id",
    summary: "Get a transfer",
    audience: "any",
    params: ZTransferParams,
    response: { status: 200, schema: ZTransferDetail },
    errors: ["transfer_not_found"],
  },
  listTransfers: {
    method: "get",
    path: "/v1/transfers",
    summary: "List the account's transfers, newest first",
    audience: "any",
    query: ZListTransfersQuery,
    response: { status: 200, schema: ZTransferList },
    errors: [],
  },
  getMe: {
    method: "get",
    path: "/v1/accounts/me",
    summary: "Get the authenticated account",
    audience: "any",
    response: { status: 200, schema: ZAccount },
    errors: ["kyc_required"],
  },
  getBalances: {
    method: "get",
    path: "/v1/accounts/me/balances",
    summary: "Get balances: whether each is non-zero, or the amount a client-made decryption proof shows",
    audience: "any",
    body: ZBalancesRequest,
    response: { status: 200, schema: ZBalances },
    errors: ["kyc_required", "decryption_proof_invalid", "chain_unavailable"],
  },
  proveBalances: {
    method: "post",
    path: "/v1/accounts/me/balances",
    summary:
      "Get balances with a client-made decryption proof in a POST body (for browsers, which cannot send a GET body); reads only",
    audience: "any",
    body: ZBalanceProofRequest,
    readOnly: true,
    response: { status: 200, schema: ZBalances },
    errors: ["kyc_required", "decryption_proof_invalid", "chain_unavailable"],
  },
  createAgent: {
    method: "post",
    path: "/v1/accounts/me/agents",
    summary: "Create an agent account with its on-chain spend policy",
    audience: "owner",
    body: ZCreateAgentRequest,
    response: { status: 201, schema: ZCreatedAgent },
    shownOnce: "signer_secret",
    errors: [
      "invalid_policy",
      "agent_exists",
      "agent_limit_reached",
      "kyc_required",
      "agent_key_not_allowed",
      ...IDEMPOTENCY_ERRORS,
      "chain_unavailable",
      "reserve_budget_exhausted",
    ],
  },
  listAgents: {
    method: "get",
    path: "/v1/accounts/me/agents",
    summary: "List the agent accounts under the authenticated account",
    audience: "owner",
    response: { status: 200, schema: ZAgentList },
    errors: ["agent_key_not_allowed"],
  },
  getSpendPolicy: {
    method: "get",
    path: "/v1/agents/:account_id/spend-policy",
    summary: "Get an agent's spend policy, read from its on-chain policy account",
    audience: "owner",
    params: ZAgentParams,
    response: { status: 200, schema: ZSpendPolicy },
    errors: ["not_agent_owner", "agent_not_found"],
  },
  updateSpendPolicy: {
    method: "patch",
    path: "/v1/agents/:account_id/spend-policy",
    summary: "Change some fields of an agent's spend policy, on-chain",
    audience: "owner",
    params: ZAgentParams,
    body: ZSpendPolicyUpdate,
    response: { status: 200, schema: ZSpendPolicy },
    errors: [
      "invalid_policy",
      "not_agent_owner",
      "agent_not_found",
      "chain_unavailable",
      "reserve_budget_exhausted",
    ],
  },
  getAgentBudget: {
    method: "get",
    path: "/v1/agents/:account_id/budget",
    summary:
      "What an agent has spent today, for its owner to decrypt: the public spend sealed to the owner, the confidential spend as the chain's ciphertexts",
    audience: "owner",
    params: ZAgentParams,
    response: { status: 200, schema: ZAgentBudget },
    errors: ["not_agent_owner", "agent_not_found", "chain_unavailable"],
  },
  listPendingApprovals: {
    method: "get",
    path: "/v1/agents/transactions/pending",
    summary: "List the agent transactions awaiting the owner's approval (amounts sealed to the owner only)",
    audience: "owner",
    response: { status: 200, schema: ZPendingList },
    errors: ["not_agent_owner"],
  },
  // After the pending list: Express matches in this order, and `pending` is not a `tx_` id.
  getAgentTransaction: {
    method: "get",
    path: "/v1/agents/transactions/:transaction_id",
    summary: "One of the owner's agents' held transactions, in any state, with its sealed amount",
    audience: "owner",
    params: ZAgentTransactionParams,
    response: { status: 200, schema: ZAgentTransaction },
    errors: ["not_agent_owner", "transaction_not_found"],
  },
  approveTransaction: {
    method: "post",
    path: "/v1/agents/transactions/:transaction_id/approve",
    summary: "Approve a held agent transaction: it is signed and submitted at once",
    audience: "owner",
    params: ZAgentTransactionParams,
    response: { status: 200, schema: ZAgentTransaction },
    errors: [
      ...DECISION_ERRORS,
      "kyc_required",
      "policy_violation",
      "insufficient_balance",
      ...IDEMPOTENCY_ERRORS,
      "chain_unavailable",
      "reserve_budget_exhausted",
    ],
  },
  rejectTransaction: {
    method: "post",
    path: "/v1/agents/transactions/:transaction_id/reject",
    summary: "Reject a held agent transaction: discarded, no funds move",
    audience: "owner",
    params: ZAgentTransactionParams,
    response: { status: 200, schema: ZAgentTransaction },
    errors: [...DECISION_ERRORS, ...IDEMPOTENCY_ERRORS, "chain_unavailable"],
  },
  createWebhook: {
    method: "post",
    path: "/v1/webhooks",
    summary: "Subscribe an HTTPS endpoint to events; the signing secret is shown once",
    audience: "any",
    body: ZCreateWebhookRequest,
    response: { status: 201, schema: ZWebhookWithSecret },
    shownOnce: "secret",
    errors: ["invalid_webhook_url", "webhook_limit_reached", ...IDEMPOTENCY_ERRORS],
  },
  rotateWebhookSecret: {
    method: "post",
    path: "/v1/webhooks/:webhook_id/rotate-secret",
    summary:
      "Replace the signing secret (shown once); the old one keeps signing beside it for a grace period",
    audience: "any",
    params: ZWebhookParams,
    response: { status: 200, schema: ZRotatedWebhookSecret },
    shownOnce: "secret",
    errors: ["webhook_not_found", ...IDEMPOTENCY_ERRORS],
  },
  listWebhooks: {
    method: "get",
    path: "/v1/webhooks",
    summary: "List the account's webhook subscriptions (secrets are never shown again)",
    audience: "any",
    response: { status: 200, schema: ZWebhookList },
    errors: [],
  },
  deleteWebhook: {
    method: "delete",
    path: "/v1/webhooks/:webhook_id",
    summary: "Delete a subscription at once; its queued deliveries are cancelled",
    audience: "any",
    params: ZWebhookParams,
    response: { status: 200, schema: ZDeletedWebhook },
    errors: ["webhook_not_found"],
  },
  replayEvent: {
    method: "post",
    path: "/v1/webhooks/:webhook_id/replay/:event_id",
    summary: "Deliver an event to the subscription again, now",
    audience: "any",
    params: ZReplayParams,
    response: { status: 202, schema: ZDelivery },
    errors: ["webhook_not_found", "event_not_found", ...IDEMPOTENCY_ERRORS],
  },
  listDeliveries: {
    method: "get",
    path: "/v1/webhooks/:webhook_id/deliveries",
    summary: "The subscription's recent deliveries: status codes, attempts and retries, newest first",
    audience: "any",
    params: ZWebhookParams,
    query: ZDeliveryListQuery,
    response: { status: 200, schema: ZDeliveryList },
    errors: ["webhook_not_found"],
  },
  beginEnrollment: {
    method: "post",
    path: "/v1/dashboard/enrollment/options",
    summary: "Passkey creation options for an enrollment link's token (the link's account)",
    audience: "public",
    body: ZEnrollmentOptionsRequest,
    response: { status: 200, schema: ZEnrollmentOptions },
    errors: ["enrollment_link_invalid", "live_mode_unavailable"],
  },
  completeEnrollment: {
    method: "post",
    path: "/v1/dashboard/enrollment",
    summary: "Register the passkey made with the enrollment options; the link is spent and a session starts",
    audience: "public",
    body: ZEnrollmentRequest,
    response: { status: 201, schema: ZSessionView },
    errors: ["enrollment_link_invalid", "passkey_verification_failed", "live_mode_unavailable"],
  },
  beginSignIn: {
    method: "post",
    path: "/v1/dashboard/sign-in/options",
    summary: "Passkey request options for a discoverable sign-in (no handle typed)",
    audience: "public",
    body: ZSignInOptionsRequest,
    response: { status: 200, schema: ZSignInOptions },
    errors: ["live_mode_unavailable"],
  },
  completeSignIn: {
    method: "post",
    path: "/v1/dashboard/sign-in",
    summary: "Sign in with a passkey's assertion; a session starts (cookie)",
    audience: "public",
    body: ZSignInRequest,
    response: { status: 201, schema: ZSessionView },
    errors: ["passkey_not_recognized", "passkey_verification_failed", "live_mode_unavailable"],
  },
  getSession: {
    method: "get",
    path: "/v1/dashboard/session",
    summary: "The signed-in session: account, passkey, CSRF token, expiry and the passkey's wrapped secret",
    audience: "session",
    response: { status: 200, schema: ZSessionView },
    errors: SESSION_ERRORS,
  },
  signOut: {
    method: "delete",
    path: "/v1/dashboard/session",
    summary: "Sign out: this session ends and its cookie is cleared",
    audience: "session",
    response: { status: 200, schema: ZSignedOut },
    errors: SESSION_CHANGE_ERRORS,
  },
  signOutEverywhere: {
    method: "post",
    path: "/v1/dashboard/sign-out-everywhere",
    summary: "End every session of the account, this one included",
    audience: "session",
    response: { status: 200, schema: ZSignedOutEverywhere },
    errors: SESSION_CHANGE_ERRORS,
  },
  listPasskeys: {
    method: "get",
    path: "/v1/dashboard/passkeys",
    summary: "The account's passkeys (revoked ones left out)",
    audience: "session",
    response: { status: 200, schema: ZPasskeyList },
    errors: SESSION_ERRORS,
  },
  revokePasskey: {
    method: "delete",
    path: "/v1/dashboard/passkeys/:passkey_id",
    summary: "Revoke a passkey: it can no longer sign in and its sessions end",
    audience: "session",
    params: ZPasskeyParams,
    response: { status: 200, schema: ZPasskey },
    errors: [...SESSION_CHANGE_ERRORS, "passkey_not_found"],
  },
  putWrappedSecret: {
    method: "put",
    path: "/v1/dashboard/passkeys/:passkey_id/wrapped-secret",
    summary: "Store (or clear) the account secret wrapped under this session's passkey's PRF key; opaque",
    audience: "session",
    params: ZPasskeyParams,
    body: ZWrappedSecretRequest,
    response: { status: 200, schema: ZWrappedSecretAnswer },
    errors: [...SESSION_CHANGE_ERRORS, "passkey_not_found"],
  },
  createKey: {
    method: "post",
    path: "/v1/keys",
    summary: "Create an API key for the account or one of its agents; the key is shown once",
    audience: "session",
    body: ZCreateKeyRequest,
    response: { status: 201, schema: ZCreatedKey },
    shownOnce: "api_key",
    errors: [...SESSION_CHANGE_ERRORS, "agent_not_found", "not_agent_owner", ...IDEMPOTENCY_ERRORS],
  },
  listKeys: {
    method: "get",
    path: "/v1/keys",
    summary: "The account's API keys with their usage (the total transferred encrypted)",
    audience: "session",
    response: { status: 200, schema: ZKeyList },
    errors: SESSION_ERRORS,
  },
  revokeKey: {
    method: "delete",
    path: "/v1/keys/:key_id",
    summary: "Revoke an API key: refused from the next request on",
    audience: "session",
    params: ZKeyParams,
    response: { status: 200, schema: ZKeyView },
    errors: [...SESSION_CHANGE_ERRORS, "key_not_found"],
  },
} as const satisfies Record<string, RouteContract>;

export type ApiRouteId = keyof typeof API_ROUTES;
