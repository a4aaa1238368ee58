/**
 * The HTTP method table: every Solana JSON-RPC method this localnet answers, by name.
 * Anything not listed answers -32601 "Method not found", never a guess.
 */
import type { RpcMethod } from "../rpc-context";
import { accountMethods } from "./accounts";
import { historyMethods } from "./history";
import { nodeInfoMethods } from "./node-info";
import { transactionMethods } from "./transactions";

export const rpcMethods: ReadonlyMap<string, RpcMethod> = new Map(
  Object.entries({ ...nodeInfoMethods, ...accountMethods, ...transactionMethods, ...historyMethods }),
);
