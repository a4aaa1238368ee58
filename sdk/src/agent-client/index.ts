/**
 * `@cpay/sdk/agent-client`: a self-custody agent's client — it signs (and, confidential, proves)
 * its own transfers and submits them through the service's relay, which pays the fees. See this
 * folder's README.md.
 */

export type { AgentBalance } from "./agent-balance";
export {
  type AgentClient,
  type AgentClientConfig,
  type AgentTransferRequest,
  createAgentClient,
} from "./agent-client";
export {
  AGENT_SETTING_NAMES,
  type AgentSettings,
  agentSettingsEnv,
  agentSettingsFromEnv,
  MCP_CONFIRM_ABOVE_SETTING,
} from "./agent-settings";
export { type AgentTransferMemo, buildAgentTransferRecord } from "./agent-transfer-record";
export { createApiRelayTransport } from "./api-relay-transport";
export { type ConnectedAgent, connectAgent } from "./connect-agent";
export { checkAgentMemo, MEMO_REFUSALS, MemoRefusedError, recipientMemoKey } from "./memo-refusals";
export type { RelaySubmission, RelayTransport } from "./relay-transport";
export { buildRelayedPublicTransfer, type RelayedPublicTransferInput } from "./relayed-public-transfer";
export { type RemainingToday, readRemainingToday } from "./remaining-today";
export { RecipientNotFoundError, type ResolvedRecipient, resolveRecipient } from "./resolve-recipient";
