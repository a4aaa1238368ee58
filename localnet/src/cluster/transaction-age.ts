/**
 * Is a transaction young enough to land? Like a validator: its recent blockhash is in the blockhash
 * queue (at most 150 blocks old), or it is a durable-nonce transaction — first instruction System
 * AdvanceNonceAccount, and the `blockhash` field equals the nonce stored in that nonce account.
 */

import type { DecodedTransaction } from "@cpay/sdk/chain";
import type { BlockhashQueue } from "./blockhash-queue";

const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const ADVANCE_NONCE_ACCOUNT = 4;
// Nonce account (bincode `nonce::state::Versions`): version u32, state u32 (1 = initialized),
// authority [32], durable nonce [32], fee calculator u64.
const NONCE_ACCOUNT_LEN = 80;
const NONCE_STATE_INITIALIZED = 1;
const DURABLE_NONCE_OFFSET = 40;

/** Reads an account's data by address (null when the account does not exist). */
export type AccountDataReader = (address: string) => { owner: string; data: Uint8Array } | null;

export function isTransactionAgeValid(
  tx: DecodedTransaction,
  blockhashes: BlockhashQueue,
  readAccount: AccountDataReader,
  encodeBase58: (bytes: Uint8Array) => string,
): boolean {
  if (blockhashes.lookup(tx.recentBlockhash) !== null) return true;
  const first = tx.instructions[0];
  if (first === undefined || tx.staticAccounts[first.programIndex] !== SYSTEM_PROGRAM) return false;
  const view = new DataView(first.data.buffer, first.data.byteOffset, first.data.byteLength);
  if (first.data.length < 4 || view.getUint32(0, true) !== ADVANCE_NONCE_ACCOUNT) return false;
  const nonceAddress = tx.staticAccounts[first.accountIndices[0] ?? -1];
  if (nonceAddress === undefined) return false;
  const nonce = readAccount(nonceAddress);
  if (nonce === null || nonce.owner !== SYSTEM_PROGRAM || nonce.data.length !== NONCE_ACCOUNT_LEN)
    return false;
  const state = new DataView(nonce.data.buffer, nonce.data.byteOffset, nonce.data.byteLength).getUint32(
    4,
    true,
  );
  if (state !== NONCE_STATE_INITIALIZED) return false;
  const stored = encodeBase58(nonce.data.subarray(DURABLE_NONCE_OFFSET, DURABLE_NONCE_OFFSET + 32));
  return stored === tx.recentBlockhash;
}
