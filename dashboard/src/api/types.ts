/**
 * The `/v1` shapes the app reads, named for the pages. Each is the zod-inferred type of the API's own
 * contract in `@cpay/sdk/api`, imported as a type only: the bundle gets none of that entry's code
 * (zod, the Node HTTP client), and a contract change breaks the app's type check, not a page.
 */
import type {
  WEBHOOK_EVENT_TYPES as API_WEBHOOK_EVENT_TYPES,
  TAccount,
  TAgent,
  TBalances,
  TDelivery,
  TKeyView,
  TPasskey,
  TPendingList,
  TSessionView,
  TSpendPolicy,
  TTransferDetail,
  TTransferList,
  TWebhook,
} from "@cpay/sdk/api";

export type SessionView = TSessionView;
export type Account = TAccount;
export type BalanceEntry = TBalances["balances"][number];
export type Transfer = TTransferDetail;
export type TransferStatus = Transfer["status"];
export type Page = Omit<TTransferList, "transfers">;
export type Agent = TAgent;
export type SpendPolicy = TSpendPolicy;
export type PendingTransaction = TPendingList["pending"][number];
export type ApiKeyView = TKeyView;
export type Passkey = TPasskey;
export type Webhook = TWebhook;
export type Delivery = TDelivery;

type ApiEventType = (typeof API_WEBHOOK_EVENT_TYPES)[number];

/** The events a webhook may subscribe to: a copy (a value import would bundle zod), checked both ways. */
export const WEBHOOK_EVENT_TYPES = [
  "transfer.initiated",
  "transfer.confirmed",
  "transfer.failed",
  "agent.transaction.pending_approval",
  "agent.transaction.approved",
  "agent.transaction.rejected",
  "agent.policy.updated",
] as const satisfies readonly ApiEventType[];
/** Compiles only while the list above names every event the API has. */
type Listed<Missing extends never> = Missing;
export type EveryEventListed = Listed<Exclude<ApiEventType, (typeof WEBHOOK_EVENT_TYPES)[number]>>;
