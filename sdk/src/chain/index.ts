/**
 * `@cpay/sdk/chain`: the asynchronous chain port every client flow goes through, its plain data
 * types, and transaction signing.
 */

export * from "./chain-port";
export * from "./chain-types";
export {
  PACKET_DATA_SIZE,
  partiallySignTransactionToWire,
  type SignTransactionInput,
  signTransactionToWire,
} from "./sign-transaction";
