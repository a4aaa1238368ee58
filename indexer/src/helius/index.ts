/**
 * `@cpay/indexer/helius`: the Helius source of the indexer — the webhook receiver, the raw entry
 * parser, the chain that turns pushes into hints, and the webhook's registration.
 */
export { type HeliusPushes, withHeliusPushes } from "./helius-chain";
export {
  createHeliusReceiver,
  DEFAULT_HELIUS_MAX_BODY_BYTES,
  HELIUS_WEBHOOK_PATH,
  type HeliusReceiverOptions,
} from "./helius-receiver";
export {
  chainTransactionOfHeliusRaw,
  chainTransactionsOfHeliusPayload,
  HeliusPayloadError,
} from "./helius-transaction";
export {
  type EnsureHeliusWebhookInput,
  ensureHeliusWebhook,
  wantedHeliusWebhook,
} from "./manage-helius-webhook";
