/**
 * The HTTP method table: every Solana JSON-RPC method this localnet answers, by name.
 * The `localnet_*` methods are this localnet's own (test-clock.ts), answered only when it was given
 * its clock. Anything not listed answers -32601 "Method not found", never a guess.
 */
import type { RpcMethod } from "../rpc-context";
import { accountMethods } from "./accounts";
import { historyMethods } from "./history";
import { nodeInfoMethods } from "./node-info";
import { testClockMethods } from "./test-clock";
import { transactionMethods } from "./transactions";

export const rpcMethods: ReadonlyMap<string, RpcMethod> = new Map(
  Object.entries({
    ...nodeInfoMethods,
    ...accountMethods,
    ...transactionMethods,
    ...historyMethods,
    ...testClockMethods,
  }),
);
