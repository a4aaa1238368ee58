/**
 * The `/v1` shapes the app reads, named for the pages. Each is the zod-inferred type of the API's own
 * contract in `@cpay/sdk/api`, imported as a type only: the bundle gets none of that entry's code
 * (zod, the Node HTTP client), and a contract change breaks the app's type check, not a page.
 */
import type {
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
/** A hold awaiting the owner (the wire calls it `PendingTransaction`: docs/glossary.md). */
export type Hold = TPendingList["pending"][number];
export type ApiKeyView = TKeyView;
export type Passkey = TPasskey;
export type Webhook = TWebhook;
export type Delivery = TDelivery;

/** The events a webhook may subscribe to: the API's own list (that module has no zod to bundle). */
export { WEBHOOK_EVENT_TYPES } from "@cpay/sdk/event-types";
