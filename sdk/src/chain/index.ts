/**
 * `@cpay/sdk/chain`: the asynchronous chain port every client flow goes through, its plain data
 * types, and transaction signing.
 */

export { awaitLanding } from "./await-landing";
export * from "./chain-port";
export * from "./chain-types";
export { type ConfirmedTransactionOptions, confirmedTransaction } from "./confirmed-transaction";
export {
  PACKET_DATA_SIZE,
  partiallySignTransactionToWire,
  type SignTransactionInput,
  signTransactionToWire,
} from "./sign-transaction";
