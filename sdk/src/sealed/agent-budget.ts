/**
 * What an agent may still spend today, read in its owner's browser from `GET
 * /v1/agents/{account_id}/budget`. The service returns no amount in plaintext: today's public spend
 * P comes sealed to the owner (seal-to-viewer.ts, bound to `budget:<agent id>:<day>`), today's
 * confidential spend S as the Policy account's bytes: the ElGamal ciphertext and its AE copy (the
 * prover state, zk-sdk's AeCiphertext: AES-128-GCM-SIV, nonce 12 || ciphertext 24, no AAD) under
 * the agent's keys, which the owner derives from its own secret (agent-keys.ts).
 *
 * The AE copy is trusted only when `C - s*D == total*G` holds with the agent's ElGamal scalar s:
 * on a mismatch this refuses (`spend_mismatch`) rather than search for the total — no discrete log
 * runs in a browser. The figures follow the program (sdk/src/agent-client/remaining-today.ts):
 * `daily` = max(0, daily_limit - P - S), `perTransaction` = min(per_transaction_limit, daily); the
 * service already counts an earlier day's counters as 0.
 */
import { ristretto255 } from "@noble/curves/ed25519";
import { AE_CIPHERTEXT_LENGTH, openAeCiphertext } from "./ae-ciphertext";
import { deriveAgentViewingKeys } from "./agent-keys";
import { fromStrictBase64 } from "./base64";
import { SealedError } from "./errors";
import { openTransferDetails } from "./transfer-details";
import { deriveViewingKeys } from "./viewing-keys";

const Point = ristretto255.Point;
/** USDG's decimals (`@cpay/sdk` `USDG_DECIMALS`; this module imports nothing outside sealed/). */
const USDG_DECIMALS = 6;

/** The fields of the API's `AgentBudget` this reads (`@cpay/sdk/api` `TAgentBudget` fits it). */
export interface AgentBudgetAnswer {
  readonly account_id: string;
  readonly handle: string;
  readonly day: string;
  readonly daily_limit_usdg: number;
  readonly per_transaction_limit_usdg: number;
  readonly public_spent_sealed: string;
  readonly confidential_spent: {
    readonly ciphertext: string;
    readonly decryptable: string;
    readonly elgamal_pubkey: string;
  } | null;
}

/** Base units left today. */
export interface RemainingBudget {
  /** What today's executed spends may still add up to. */
  readonly daily: bigint;
  /** The largest single transfer the program accepts now. */
  readonly perTransaction: bigint;
}

/** What the public spend of agent `agentId` on UTC day `day` (YYYY-MM-DD) is sealed bound to. */
export function agentBudgetBinding(agentId: string, day: string): string {
  return `budget:${agentId}:${day}`;
}

/**
 * The agent's remaining budget today from the budget answer and the owner's 32-byte secret (see the
 * file doc). Throws `SealedError`: `not_yours` when the sealed spend or the confidential spend is
 * under another owner's or agent's key, `malformed` for an altered or re-bound envelope or bad
 * bytes, `spend_mismatch` when the AE copy does not match the ciphertext.
 */
export function remainingBudgetOf(input: {
  readonly budget: AgentBudgetAnswer;
  readonly ownerSecret: Uint8Array;
}): RemainingBudget {
  const { budget } = input;
  const owner = deriveViewingKeys(input.ownerSecret);
  const publicSpent = openTransferDetails({
    sealed: budget.public_spent_sealed,
    viewer: owner,
    boundTo: agentBudgetBinding(budget.account_id, budget.day),
  }).amount;
  const confidentialSpent =
    budget.confidential_spent === null
      ? 0n
      : confidentialSpentOf(budget.confidential_spent, input.ownerSecret, budget.handle);
  const left = unitsOf(budget.daily_limit_usdg) - publicSpent - confidentialSpent;
  const daily = left > 0n ? left : 0n;
  const perTransactionLimit = unitsOf(budget.per_transaction_limit_usdg);
  return { daily, perTransaction: perTransactionLimit < daily ? perTransactionLimit : daily };
}

/** S, from its AE copy checked against its ciphertext with the agent's keys. */
function confidentialSpentOf(
  spent: NonNullable<AgentBudgetAnswer["confidential_spent"]>,
  ownerSecret: Uint8Array,
  handle: string,
): bigint {
  const ciphertext = fromStrictBase64(spent.ciphertext);
  const decryptable = fromStrictBase64(spent.decryptable);
  const pubkey = fromStrictBase64(spent.elgamal_pubkey);
  if (ciphertext?.length !== 64 || decryptable?.length !== AE_CIPHERTEXT_LENGTH || pubkey?.length !== 32)
    throw new SealedError("malformed", "the confidential spend is not a ciphertext, an AE copy and a pubkey");
  const agent = deriveAgentViewingKeys(ownerSecret, handle);
  if (!agent.elgamalPubkey.every((byte, i) => byte === pubkey[i]))
    throw new SealedError(
      "not_yours",
      `today's confidential spend is not under ${handle}'s key from this secret`,
    );
  let total: bigint;
  try {
    total = openAeCiphertext(agent.aeKey, decryptable);
  } catch (cause) {
    throw new SealedError(
      "spend_mismatch",
      "the confidential spend's AE copy does not open with the agent's key",
      {
        cause,
      },
    );
  }
  let holds: boolean;
  try {
    const commitment = Point.fromBytes(ciphertext.subarray(0, 32));
    const handlePoint = Point.fromBytes(ciphertext.subarray(32, 64));
    const expected = total === 0n ? Point.ZERO : Point.BASE.multiply(total);
    holds = commitment.subtract(handlePoint.multiply(agent.elgamalScalar)).equals(expected);
  } catch (cause) {
    throw new SealedError("malformed", "the confidential spend's ciphertext is not two Ristretto points", {
      cause,
    });
  }
  if (!holds)
    throw new SealedError(
      "spend_mismatch",
      "the confidential spend's AE copy says an amount its ciphertext does not hold; refusing to guess",
    );
  return total;
}

/** A USDG limit as the API writes it (a JSON number) in base units, exactly, else `malformed`. */
function unitsOf(usdg: number): bigint {
  const match = Number.isFinite(usdg) && usdg >= 0 ? /^(\d+)(?:\.(\d{1,6}))?$/.exec(String(usdg)) : null;
  if (match === null) throw new SealedError("malformed", `${usdg} is not a USDG limit`);
  return (
    BigInt(match[1] ?? "0") * 10n ** BigInt(USDG_DECIMALS) +
    BigInt((match[2] ?? "").padEnd(USDG_DECIMALS, "0"))
  );
}
