/**
 * `@cpay/sdk/x402`: an agent account pays HTTP 402 (x402 v2, scheme `exact`) resources through its
 * PDA, under its on-chain spend policy. See this folder's README.md.
 */
export {
  type AgentX402PaymentInput,
  buildAgentX402Payment,
  X402_COMPUTE_UNIT_LIMIT,
  X402_COMPUTE_UNIT_PRICE_MICRO_LAMPORTS,
} from "./agent-x402-payment";
export {
  type AgentX402PayerConfig,
  type AgentX402Scheme,
  createAgentX402Client,
  createAgentX402Scheme,
  type SignedX402Payment,
} from "./agent-x402-scheme";
export { type ExactSvmRequirement, readExactRequirement } from "./exact-requirement";
export { AgentX402Error, type AgentX402ErrorCode } from "./x402-errors";
export { solanaNetworkOf } from "./x402-network";
