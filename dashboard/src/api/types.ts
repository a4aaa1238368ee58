/**
 * The `/v1` response shapes the app reads. The contracts live in `@cpay/sdk/api` (zod); that entry
 * also carries the Node HTTP client, so the browser build keeps its own plain interfaces of the
 * fields it uses, named like the API's.
 */
export interface SessionView {
  readonly account: { readonly account_id: string; readonly handle: string; readonly type: string };
  readonly passkey: { readonly passkey_id: string; readonly name: string };
  readonly csrf_token: string;
  readonly expires_at: string;
  readonly idle_expires_at: string;
  readonly wrapped_secret: string | null;
}

export interface Account {
  readonly account_id: string;
  readonly handle: string;
  readonly type: string;
  readonly public_key: string;
  readonly kyc_status: string;
  readonly confidential_status?: string;
  readonly elgamal_pubkey?: string | null;
}

export interface BalanceEntry {
  readonly asset: string;
  readonly confidential: boolean;
  readonly has_balance?: boolean;
  readonly amount?: string;
  readonly encrypted?: {
    readonly available_balance: string;
    readonly decryptable_available_balance: string;
  } | null;
}

export type TransferStatus = "pending" | "confirmed" | "failed";

export interface Transfer {
  readonly transfer_id: string;
  readonly status: TransferStatus;
  readonly to: string;
  readonly from: string;
  readonly confidential: boolean;
  readonly tx_signature: string | null;
  readonly created_at: string;
  readonly confirmed_at: string | null;
  readonly approval: { readonly transaction_id: string; readonly expires_at: string } | null;
  readonly direction?: "sent" | "received";
  readonly sealed_details?: string | null;
}

export interface Page {
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
  readonly has_more: boolean;
}

export interface Agent {
  readonly account_id: string;
  readonly handle: string;
  readonly public_key: string;
  readonly status: string;
  readonly spend_policy_id: string;
  readonly custody: "service" | "self";
}

export interface SpendPolicy {
  readonly policy_id: string;
  readonly daily_limit_usdg: number;
  readonly per_transaction_limit_usdg: number;
  readonly allowed_recipients: string[];
  readonly assets: string[];
  readonly active_hours: string;
  readonly hitl_threshold_usdg: number;
  readonly approval_window_seconds: number;
  readonly updated_at: string;
}

export interface PendingTransaction {
  readonly transaction_id: string;
  readonly agent: string;
  readonly to: string;
  readonly confidential: boolean;
  readonly requested_at: string;
  readonly expires_at: string;
  readonly sealed_amount?: string | null;
}

export interface ApiKeyView {
  readonly id: string;
  readonly name: string;
  readonly environment: string;
  readonly display: string;
  readonly created_at: string;
  readonly last_used_at: string | null;
  readonly revoked_at: string | null;
  readonly request_count: number;
  readonly transfer_count: number;
  readonly transferred_total_encrypted: string | null;
}

export interface Webhook {
  readonly webhook_id: string;
  readonly url: string;
  readonly events: string[];
  readonly created_at: string;
}

export interface Delivery {
  readonly delivery_id: string;
  readonly event_id: string;
  readonly event: string;
  readonly state: string;
  readonly attempts: number;
  readonly retry_count: number;
  readonly last_status_code: number | null;
  readonly next_attempt_at: string | null;
  readonly history: {
    readonly at: string;
    readonly status_code: number | null;
    readonly error: string | null;
  }[];
  readonly created_at: string;
}

export const WEBHOOK_EVENT_TYPES = [
  "transfer.initiated",
  "transfer.confirmed",
  "transfer.failed",
  "agent.transaction.pending_approval",
  "agent.transaction.approved",
  "agent.transaction.rejected",
  "agent.policy.updated",
] as const;
