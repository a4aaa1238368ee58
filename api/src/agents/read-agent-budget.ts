/**
 * What an agent has spent today, for its owner's browser to turn into the remaining budget
 * (`@cpay/sdk/sealed` `remainingBudgetOf`). Read from the agent's Policy account and the cluster's
 * Clock in one request, counted the program's way (sdk/src/agent-client/remaining-today.ts): the
 * cluster's UTC day; counters stored for an earlier day count 0.
 *
 * No amount leaves in plaintext (spec rule 2), not even the public-path spend the chain shows: it is
 * sealed to the owner's ElGamal key from a one-time key (`sealAmountToViewer`), so sealing needs no
 * secret, bound to `budget:<agent id>:<day>`. The confidential spend is returned as the chain's
 * bytes: only the agent's keys, which the owner derives from its own secret, read it.
 */

import type { AccountRow } from "@cpay/ledger";
import { findPolicyPda, formatDecimalAmount, LIMIT_DECIMALS } from "@cpay/sdk";
import {
  type PolicySpendState,
  policySpendStateOf,
  SECONDS_PER_DAY,
  SYSVAR_CLOCK_ADDRESS,
  unixTimeOf,
  utcDayIndex,
} from "@cpay/sdk/agent-confidential";
import type { TAgentBudget } from "@cpay/sdk/api";
import { agentBudgetBinding, sealAmountToViewer } from "@cpay/sdk/sealed";
import { address } from "@solana/kit";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { confidentialKeysOf } from "../vault/account-secrets";

/** The budget answer of `agent` for its owner `owner` (see the file doc). */
export async function readAgentBudget(
  service: ServiceContext,
  owner: AccountRow,
  agent: AccountRow,
): Promise<TAgentBudget> {
  const [policyAddress] = await findPolicyPda(
    { agent: address(agent.publicKey) },
    { programAddress: address(service.chain.programId) },
  );
  const [record = null, clock = null] = await service.chain.getMultipleAccounts([
    policyAddress,
    SYSVAR_CLOCK_ADDRESS,
  ]);
  let state: PolicySpendState;
  try {
    // Account bytes are a trust boundary: owner, length and discriminator are checked here.
    state = policySpendStateOf(service.chain.programId, policyAddress, record);
  } catch {
    throw new ApiError("chain_unavailable", "the agent's policy account could not be read from the cluster");
  }
  const today = utcDayIndex(unixTimeOf(clock));
  const day = new Date(Number(today * SECONDS_PER_DAY) * 1000).toISOString().slice(0, 10);
  // As the program: a later day starts from zero; a clock that stepped back keeps the stored day.
  const sameDay = today <= state.dayIndex;
  const hasConfidential = sameDay && state.spendCiphertext.some((byte) => byte !== 0);
  const ownerKeys = await confidentialKeysOf(service, owner);
  return {
    account_id: agent.id,
    handle: agent.handle,
    day,
    // Written as the policy routes write them (read-spend-policy.ts), from the same bytes.
    daily_limit_usdg: usdgOf(state.dailyLimit),
    per_transaction_limit_usdg: usdgOf(state.perTransactionLimit),
    public_spent_sealed: sealAmountToViewer({
      amount: sameDay ? state.spentToday : 0n,
      viewerPubkey: ownerKeys.elgamalPubkey,
      boundTo: agentBudgetBinding(agent.id, day),
    }),
    confidential_spent: hasConfidential
      ? {
          ciphertext: base64(state.spendCiphertext),
          decryptable: base64(state.spendDecryptable),
          elgamal_pubkey: base64(state.spendPubkey),
        }
      : null,
  };
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

function usdgOf(units: bigint): number {
  return Number(formatDecimalAmount(units, LIMIT_DECIMALS));
}
