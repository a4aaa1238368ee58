/**
 * An agent's spend policy as the chain holds it (spec 4.6): the program enforces the policy from
 * its Policy account, so that account — not a database copy — is what the API reports.
 */

import type { AccountRow } from "@cpay/ledger";
import {
  decodeProgramAccount,
  decodeSpendPolicy,
  findPolicyPda,
  getPolicyDecoder,
  POLICY_DISCRIMINATOR,
  type Policy,
  policyParamsFromAccount,
} from "@cpay/sdk";
import type { TSpendPolicy } from "@cpay/sdk/api";
import { address } from "@solana/kit";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";

/** The Policy account of the agent at `agentAddress`, or null when the chain has none. */
export async function readPolicyAccount(
  service: ServiceContext,
  agentAddress: string,
): Promise<Policy | null> {
  const [policyAddress] = await findPolicyPda(
    { agent: address(agentAddress) },
    { programAddress: address(service.chain.programId) },
  );
  const record = await service.chain.getAccount(policyAddress);
  return decodeProgramAccount(record, service.chain.programId, POLICY_DISCRIMINATOR, getPolicyDecoder());
}

/**
 * The policy of `agent` in API units: limits as JSON numbers of USDG (spec 2.4), assets by symbol,
 * patterns and hours in their API spelling, `updated_at` from the account's on-chain `updated_at`
 * (the cluster's unix time of the last change). A missing account means the chain and the
 * database disagree (a reset cluster): `503 chain_unavailable`, since nothing here can be trusted.
 * A JSON number is a double: limits above 2^53 base units (about 9 billion USDG) are shown rounded;
 * the program enforces the exact stored value.
 */
export async function readSpendPolicy(service: ServiceContext, agent: AccountRow): Promise<TSpendPolicy> {
  const policy = await readPolicyAccount(service, agent.publicKey);
  if (policy === null || agent.policyId === null) {
    throw new ApiError("chain_unavailable", "the agent's policy account could not be read from the cluster");
  }
  return spendPolicyView(service, agent.policyId, policy);
}

/** A Policy account -> the API's spend-policy resource. */
export function spendPolicyView(service: ServiceContext, policyId: string, policy: Policy): TSpendPolicy {
  const view = decodeSpendPolicy(policyParamsFromAccount(policy), { assets: service.assets });
  return {
    policy_id: policyId,
    daily_limit_usdg: Number(view.daily_limit_usdg),
    per_transaction_limit_usdg: Number(view.per_transaction_limit_usdg),
    allowed_recipients: view.allowed_recipients,
    assets: view.assets,
    active_hours: view.active_hours,
    hitl_threshold_usdg: Number(view.hitl_threshold_usdg),
    approval_window_seconds: view.approval_window_seconds,
    updated_at: new Date(Number(policy.updatedAt) * 1000).toISOString(),
  };
}
