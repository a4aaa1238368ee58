/**
 * The prover state — what the agent has spent confidentially today — rebuilt from chain, so an
 * agent that restarts (or runs on another machine) needs nothing stored locally.
 *
 * Sources, in order (CONFIDENTIAL.md "Today's confidential spend S"):
 * 1. the day is over (`today > day_index`): the program counts today's spends from zero, so P, S
 *    and the total are zero (a clock that stepped back, `today < day_index`, keeps the stored day,
 *    as the program does);
 * 2. `spend_decryptable`, the AE blob the prover wrote with its last spend (~0 ms), trusted only
 *    when `S_C - s*S_D == total*G` holds with the agent's ElGamal secret s: a corrupt, stale or
 *    foreign blob cannot pass that check;
 * 3. otherwise ElGamal decryption of S (a discrete log, ~0.3 s, only below 2^32).
 * Anything else throws `spend_state_undecryptable`; a spend ciphertext under another key throws
 * `account_key_mismatch` (the program would refuse the spend: `ConfidentialKeyMismatch`).
 */
import { RistrettoPoint } from "@noble/curves/ed25519";
import type { ChainPort } from "../chain/chain-port";
import { sameBytes } from "../confidential/account-setup";
import { decryptElGamal } from "../confidential/balance";
import { isZeroCiphertext } from "../confidential/ciphertext-arithmetic";
import { ConfidentialError } from "../confidential/errors";
import { type ConfidentialKeyset, littleEndianToBigInt } from "../confidential/keys";
import { AeCiphertext } from "../confidential/zk-sdk";
import { clusterUnixTime, utcDayIndex } from "./cluster-clock";
import { type PolicySpendState, readPolicySpendState } from "./policy-account";

const ZERO_CIPHERTEXT = new Uint8Array(64);

export interface ProverState {
  /** The cluster's UTC day the state is for. */
  readonly today: bigint;
  readonly perTransactionLimit: bigint;
  readonly dailyLimit: bigint;
  readonly hitlThreshold: bigint;
  /** P: today's public spend. */
  readonly publicSpentToday: bigint;
  /** S: today's confidential spend ciphertext (64 zero bytes when none). */
  readonly spendCiphertext: Uint8Array;
  /** What S encrypts. */
  readonly confidentialSpentToday: bigint;
  /** Where the total came from. */
  readonly source: "new_day" | "none" | "decryptable" | "elgamal";
}

/** Reads the policy and the cluster clock and rebuilds today's prover state (see the file doc). */
export async function readProverState(
  chain: ChainPort,
  input: { readonly policy: string; readonly keys: ConfidentialKeyset; readonly unixTime?: bigint },
): Promise<ProverState> {
  const [policy, unixTime] = await Promise.all([
    readPolicySpendState(chain, input.policy),
    input.unixTime ?? clusterUnixTime(chain),
  ]);
  return proverStateOf(policy, input.keys, utcDayIndex(unixTime));
}

/** The prover state of a decoded policy on UTC day `today` (pure; see the file doc). */
export function proverStateOf(
  policy: PolicySpendState,
  keys: ConfidentialKeyset,
  today: bigint,
): ProverState {
  const limits = {
    today,
    perTransactionLimit: policy.perTransactionLimit,
    dailyLimit: policy.dailyLimit,
    hitlThreshold: policy.hitlThreshold,
  };
  if (today > policy.dayIndex) {
    return {
      ...limits,
      publicSpentToday: 0n,
      spendCiphertext: ZERO_CIPHERTEXT,
      confidentialSpentToday: 0n,
      source: "new_day",
    };
  }
  const day = { ...limits, publicSpentToday: policy.spentToday, spendCiphertext: policy.spendCiphertext };
  if (isZeroCiphertext(policy.spendCiphertext)) return { ...day, confidentialSpentToday: 0n, source: "none" };
  if (!sameBytes(policy.spendPubkey, keys.elgamalPubkey)) {
    throw new ConfidentialError(
      "account_key_mismatch",
      "today's confidential spend is encrypted under another ElGamal key than the agent's",
    );
  }
  const fromBlob = decryptSpendDecryptable(policy.spendDecryptable, keys);
  if (fromBlob !== null && encryptsTotal(policy.spendCiphertext, fromBlob, keys)) {
    return { ...day, confidentialSpentToday: fromBlob, source: "decryptable" };
  }
  try {
    return {
      ...day,
      confidentialSpentToday: decryptElGamal(policy.spendCiphertext, keys),
      source: "elgamal",
    };
  } catch (cause) {
    throw new ConfidentialError(
      "spend_state_undecryptable",
      "today's confidential spend has no valid prover state and does not decrypt below 2^32",
      { cause },
    );
  }
}

/** The total the AE blob holds, or null when it is missing or not the agent's. */
function decryptSpendDecryptable(blob: Uint8Array, keys: ConfidentialKeyset): bigint | null {
  if (blob.every((byte) => byte === 0)) return null;
  try {
    return AeCiphertext.fromBytes(blob)?.decrypt(keys.ae) ?? null;
  } catch {
    return null;
  }
}

/** True when `S_C - s*S_D == total*G`, i.e. S encrypts `total` under the agent's key. */
export function encryptsTotal(spendCiphertext: Uint8Array, total: bigint, keys: ConfidentialKeyset): boolean {
  const secret = littleEndianToBigInt(keys.elgamal.secret().toBytes());
  let commitment: InstanceType<typeof RistrettoPoint>;
  let handle: InstanceType<typeof RistrettoPoint>;
  try {
    commitment = RistrettoPoint.fromHex(spendCiphertext.subarray(0, 32));
    handle = RistrettoPoint.fromHex(spendCiphertext.subarray(32, 64));
  } catch {
    return false;
  }
  // Secret scalars: constant-time multiply (it refuses 0, which neither s nor a non-zero total is).
  const expected = total === 0n ? RistrettoPoint.ZERO : RistrettoPoint.BASE.multiply(total);
  return commitment.subtract(handle.multiply(secret)).equals(expected);
}
