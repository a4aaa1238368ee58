/**
 * `@cpay/sdk/chain`: the asynchronous chain port every client flow goes through, its plain data
 * types, the port over Solana JSON-RPC + PubSub, and transaction signing.
 */

export {
  type AwaitLandingOptions,
  awaitLanding,
  expiredTransactionIn,
  isNeverLanded,
  TransactionExpired,
} from "./await-landing";
export * from "./chain-port";
export * from "./chain-types";
export { meetsCommitment } from "./commitment";
export * from "./compute-budget";
export { type ConfirmedTransactionOptions, confirmedTransaction } from "./confirmed-transaction";
export * from "./deterministic-keys";
export * from "./localnet-manifest";
export {
  type NeverLandedProof,
  type ProveNeverLandedOptions,
  proveNeverLanded,
} from "./never-landed-proof";
export { connectRpcChain, type RpcChainOptions } from "./rpc-chain";
export { RpcResponseError } from "./rpc-errors";
export { UnexpectedRpcAnswer } from "./rpc-normalize";
export {
  PACKET_DATA_SIZE,
  partiallySignTransactionToWire,
  type SignTransactionInput,
  signTransactionToWire,
} from "./sign-transaction";
export * from "./token-programs";
export * from "./transaction-fee";
export * from "./wire-transaction";
