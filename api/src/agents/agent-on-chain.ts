/**
 * The chain half of creating an agent, in two idempotent steps so an interrupted creation can be
 * finished by retrying it: `agent_create` (the Agent PDA, its Policy and its Handle; signed by the
 * owner's wallet) unless the Agent account already exists, then the agent's confidential USDG
 * account (configured through the program, signed by the agent signer). The fee reserve pays
 * every fee and rent deposit.
 */

import type { AccountRow } from "@cpay/ledger";
import {
  buildAgentCreateInstruction,
  decodeSpendPolicy,
  encodeSpendPolicy,
  type PolicyParams,
  policyParamsFromAccount,
  type SpendPolicyInput,
} from "@cpay/sdk";
import { setupAgentConfidentialAccount } from "@cpay/sdk/agent-confidential";
import { findTokenAccount, isConfidentialError, readConfidentialState } from "@cpay/sdk/confidential";
import { address } from "@solana/kit";
import { ProgramRefusal, sendInstructions } from "../chain/send-instructions";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { reserveRefusalIn } from "../reserve/reserve-charges";
import { reservePayer } from "../reserve/reserve-scope";
import { agentSignerOf, confidentialKeysOf, walletSignerOf } from "../vault/account-secrets";
import { invalidPolicyOfProgramError } from "./policy-errors";
import { readPolicyAccount } from "./read-spend-policy";

/** Whether the Agent account of `agent` exists on the cluster. */
export async function agentExistsOnChain(service: ServiceContext, agent: AccountRow): Promise<boolean> {
  return (await service.chain.getAccount(agent.publicKey)) !== null;
}

/** Whether the agent's USDG account is configured for confidential transfers. */
export async function agentConfidentialReady(service: ServiceContext, agent: AccountRow): Promise<boolean> {
  const tokenAccount = await findTokenAccount(agent.publicKey, service.chain.usdgMint);
  return (await readConfidentialState(service.chain, tokenAccount)) !== null;
}

/**
 * Sends `agent_create` for the row `agent` of `owner` with `policy`. A program refusal of the
 * policy is `400 invalid_policy`; an agent that already exists on-chain `409 agent_exists`; any
 * other failure `503 chain_unavailable`.
 */
export async function createAgentOnChain(
  service: ServiceContext,
  owner: AccountRow,
  agent: AccountRow,
  policy: SpendPolicyInput,
): Promise<void> {
  const { instruction, agent: pda } = await buildAgentCreateInstruction({
    owner: await walletSignerOf(service, owner.id),
    ownerHandle: owner.handle,
    name: agent.agentName ?? "",
    agentSigner: (await agentSignerOf(service, agent.id)).address,
    policy,
    payer: reservePayer(service),
    assets: service.assets,
    programAddress: address(service.chain.programId),
  });
  if (pda !== agent.publicKey) throw new Error(`agent ${agent.id}: its PDA is not its public key`);
  try {
    await sendInstructions(service, [instruction]);
  } catch (error) {
    if (reserveRefusalIn(error) !== null) throw error;
    if (error instanceof ProgramRefusal) {
      if (error.programError.name === "AccountAlreadyInitialized") {
        throw new ApiError("agent_exists", `the agent ${agent.handle} already exists`, "name");
      }
      const refused = invalidPolicyOfProgramError(error.programError.name, "spend_policy.");
      if (refused !== null) throw refused;
    }
    service.logger.warn({ agent_id: agent.id, err: { name: (error as Error).name } }, "agent_create failed");
    throw new ApiError("chain_unavailable", "the cluster did not create the agent; nothing was kept, retry");
  }
}

/** Configures the agent's confidential USDG account (a no-op when it already is). */
export async function setupAgentAccountOnChain(service: ServiceContext, agent: AccountRow): Promise<void> {
  try {
    await setupAgentConfidentialAccount(service.chain, {
      authority: await agentSignerOf(service, agent.id),
      agent: agent.publicKey,
      mint: service.chain.usdgMint,
      keys: await confidentialKeysOf(service, agent),
      payer: reservePayer(service),
    });
  } catch (error) {
    const budget = reserveRefusalIn(error);
    if (budget !== null) throw budget;
    if (!isConfidentialError(error)) throw error;
    service.logger.warn(
      { agent_id: agent.id, err: { name: error.name, code: error.code } },
      "agent confidential account setup failed",
    );
    throw new ApiError(
      "chain_unavailable",
      "the agent was created but its confidential account could not be set up; retry the same request to finish",
    );
  }
}

/**
 * Whether the agent's on-chain policy is the one `policy` describes (compared in API units, so
 * `"10"` and `10` are the same limit). Decides whether a retried creation may finish the agent.
 */
export async function onChainPolicyEquals(
  service: ServiceContext,
  agent: AccountRow,
  policy: SpendPolicyInput,
): Promise<boolean> {
  const account = await readPolicyAccount(service, agent.publicKey);
  if (account === null) return false;
  const options = { assets: service.assets };
  const stored = decodeSpendPolicy(policyParamsFromAccount(account), options);
  const requested = decodeSpendPolicy(encodeSpendPolicy(policy, options) as PolicyParams, options);
  return JSON.stringify(stored) === JSON.stringify(requested);
}
