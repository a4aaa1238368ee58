/**
 * Changing an agent's spend policy (spec 4.5): only the fields present change, on-chain
 * (`policy_update`, signed by the owner's wallet, paid by the fee reserve). Once it landed, the
 * `agent.policy.updated` event is recorded, once per on-chain update (its signature is the fact),
 * and the policy is read back from the chain, so the answer is what the program now enforces.
 */

import type { AccountRow } from "@cpay/ledger";
import { policyUpdatedFact, recordEvent } from "@cpay/ledger";
import { buildPolicyUpdateInstruction, encodeSpendPolicyUpdate } from "@cpay/sdk";
import type { TSpendPolicy, ZSpendPolicyUpdate } from "@cpay/sdk/api";
import { address } from "@solana/kit";
import type { z } from "zod";
import { ProgramRefusal, sendInstructions } from "../chain/send-instructions";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { walletSignerOf } from "../vault/account-secrets";
import { encodePolicyOrRefuse, invalidPolicyOfProgramError } from "./policy-errors";
import { readSpendPolicy } from "./read-spend-policy";

/**
 * Applies `update` to the policy of `agent` (already checked to be `owner`'s). An empty update is
 * `400 invalid_policy`; a bad field `400 invalid_policy` naming it; a chain failure
 * `503 chain_unavailable` (nothing changed).
 */
export async function updateSpendPolicy(
  service: ServiceContext,
  owner: AccountRow,
  agent: AccountRow,
  update: z.output<typeof ZSpendPolicyUpdate>,
): Promise<TSpendPolicy> {
  if (Object.values(update).every((value) => value === undefined)) {
    throw new ApiError("invalid_policy", "the update has no fields to change", "body");
  }
  const options = { assets: service.assets };
  encodePolicyOrRefuse(() => encodeSpendPolicyUpdate(update, options), "");
  const instruction = await buildPolicyUpdateInstruction({
    owner: await walletSignerOf(service, owner.id),
    agent: address(agent.publicKey),
    update,
    ...options,
    programAddress: address(service.chain.programId),
  });
  let signature: string;
  try {
    signature = await sendInstructions(service, [instruction]);
  } catch (error) {
    const refused =
      error instanceof ProgramRefusal ? invalidPolicyOfProgramError(error.programError.name, "") : null;
    if (refused !== null) throw refused;
    service.logger.warn({ agent_id: agent.id, err: { name: (error as Error).name } }, "policy_update failed");
    throw new ApiError("chain_unavailable", "the cluster did not apply the policy update; nothing changed");
  }
  // `agent` is `owner`'s (loadOwnedAgent), so the fact goes to `owner` as the indexer's would.
  await service.db.transaction((tx) => recordEvent(service, tx, policyUpdatedFact(agent, signature)));
  return readSpendPolicy(service, agent);
}
