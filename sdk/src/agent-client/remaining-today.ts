/**
 * What an agent may still spend today, read from its Policy account and the cluster's clock the way
 * the program counts it (programs/agent-policy/src/rules/limits.rs, CONFIDENTIAL.md):
 *
 * - the day is the cluster's UTC day (Clock sysvar); counters stored for an earlier day count 0;
 * - P: today's public spend (`spent_today`), S: today's confidential spend — an ElGamal ciphertext
 *   the program cannot read, decrypted here with the agent's keys (prover-state.ts: the AE blob,
 *   checked against S, else a discrete log), never sent anywhere;
 * - `daily` = max(0, daily_limit - P - S): what today's executed spends may still add up to;
 * - `perTransaction` = min(per_transaction_limit, daily): the largest single transfer the program
 *   accepts now. Above the HITL threshold it is held rather than executed (the limits are checked
 *   at hold time too; a hold counts toward the day only when approved).
 *
 * Not reflected: open holds (counted on approval), active hours, recipients and assets, and that a
 * public spend is refused on a day with confidential spend (`PublicSpendAfterConfidential`).
 */
import { clusterUnixTime, utcDayIndex } from "../agent-confidential/cluster-clock";
import { readPolicySpendState } from "../agent-confidential/policy-account";
import { proverStateOf } from "../agent-confidential/prover-state";
import type { ChainPort } from "../chain/chain-port";
import { isZeroCiphertext } from "../confidential/ciphertext-arithmetic";
import type { ConfidentialKeyset } from "../confidential/keys";

/** Base units left today (see the file doc). */
export interface RemainingToday {
  readonly perTransaction: bigint;
  readonly daily: bigint;
}

/**
 * Reads the Policy at `policy` and returns what is left today. `keys` (the agent token account's
 * confidential keys) are needed only when the agent has spent confidentially today.
 */
export async function readRemainingToday(
  chain: ChainPort,
  input: { readonly policy: string; readonly keys?: ConfidentialKeyset },
): Promise<RemainingToday> {
  const [policy, unixTime] = await Promise.all([
    readPolicySpendState(chain, input.policy),
    clusterUnixTime(chain),
  ]);
  const today = utcDayIndex(unixTime);
  const sameDay = today <= policy.dayIndex;
  const publicSpent = sameDay ? policy.spentToday : 0n;
  let confidentialSpent = 0n;
  if (sameDay && !isZeroCiphertext(policy.spendCiphertext)) {
    if (input.keys === undefined) {
      throw new Error(
        "the agent spent confidentially today: its confidential keys are needed to read how much",
      );
    }
    confidentialSpent = proverStateOf(policy, input.keys, today).confidentialSpentToday;
  }
  const left = policy.dailyLimit - publicSpent - confidentialSpent;
  const daily = left > 0n ? left : 0n;
  return {
    daily,
    perTransaction: policy.perTransactionLimit < daily ? policy.perTransactionLimit : daily,
  };
}
