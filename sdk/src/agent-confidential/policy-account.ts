/**
 * The parts of an agent's `Policy` account the confidential path reads (CONFIDENTIAL.md "Layout
 * changes"; state/policy.rs): the three amount limits, today's public spend and the confidential
 * spend. Read from raw bytes after the owner, length and discriminator checks, so the confidential
 * fields are available whatever the generated decoder calls them.
 *
 * | offset | size | field |
 * |---|---|---|
 * | 48 | 8 | per_transaction_limit u64 |
 * | 56 | 8 | daily_limit u64 |
 * | 64 | 8 | hitl_threshold u64 |
 * | 80 | 8 | day_index i64 (UTC day of spent_today and of the confidential spend) |
 * | 88 | 8 | spent_today u64 (public path) |
 * | 1288 | 64 | spend_ciphertext: S, ElGamal under spend_pubkey |
 * | 1352 | 32 | spend_pubkey |
 * | 1384 | 36 | spend_decryptable: AE of the prover's running total |
 */
import type { ChainPort } from "../chain/chain-port";
import type { AccountRecord } from "../chain/chain-types";
import { POLICY_DISCRIMINATOR } from "../generated";

export const POLICY_ACCOUNT_LENGTH = 1544;

export interface PolicySpendState {
  readonly address: string;
  readonly perTransactionLimit: bigint;
  readonly dailyLimit: bigint;
  readonly hitlThreshold: bigint;
  /** The UTC day `spentToday` and the confidential spend were counted on. */
  readonly dayIndex: bigint;
  readonly spentToday: bigint;
  readonly spendCiphertext: Uint8Array;
  readonly spendPubkey: Uint8Array;
  readonly spendDecryptable: Uint8Array;
}

/** Decodes a Policy account's bytes (trust boundary: length and discriminator checked). */
export function decodePolicySpendState(address: string, data: Uint8Array): PolicySpendState {
  if (data.length !== POLICY_ACCOUNT_LENGTH) {
    throw new Error(`${address} is not a Policy account (${data.length} bytes)`);
  }
  if (!POLICY_DISCRIMINATOR.every((byte, i) => data[i] === byte)) {
    throw new Error(`${address} is not a Policy account (discriminator)`);
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    address,
    perTransactionLimit: view.getBigUint64(48, true),
    dailyLimit: view.getBigUint64(56, true),
    hitlThreshold: view.getBigUint64(64, true),
    dayIndex: view.getBigInt64(80, true),
    spentToday: view.getBigUint64(88, true),
    spendCiphertext: data.slice(1288, 1352),
    spendPubkey: data.slice(1352, 1384),
    spendDecryptable: data.slice(1384, 1420),
  };
}

/** Reads the Policy at `policy`, which must belong to the cluster's agent-policy program. */
export async function readPolicySpendState(chain: ChainPort, policy: string): Promise<PolicySpendState> {
  return policySpendStateOf(chain.programId, policy, await chain.getAccount(policy));
}

/** readPolicySpendState over an account already read; `programId` is the agent-policy program. */
export function policySpendStateOf(
  programId: string,
  policy: string,
  account: AccountRecord | null,
): PolicySpendState {
  if (account === null) throw new Error(`no Policy account at ${policy}`);
  if (account.owner !== programId) throw new Error(`${policy} is not owned by the agent-policy program`);
  return decodePolicySpendState(policy, account.data);
}
