/**
 * `@cpay/localnet/rpc`: the embedded cluster served as a Solana node (JSON-RPC + PubSub) on
 * loopback, for @solana/kit, the indexer's RPC source and standard Solana tools.
 */

export { parseAllowedOrigins } from "./allowed-origins";
export { type AccountApproval, approveAccounts } from "./approve-accounts";
export { exitOnSignals } from "./exit-on-signals";
export { RpcError, RpcErrorCode } from "./json-rpc-errors";
export { type PubSubServer, type PubSubServerOptions, startPubSubServer } from "./pubsub-server";
export { DEFAULT_MAX_BODY_BYTES, type RpcServer, type RpcServerOptions, startRpcServer } from "./rpc-server";
export { type Localnet, type LocalnetOptions, startLocalnet } from "./start-localnet";
