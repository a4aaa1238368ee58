/**
 * Deposit for an agent: public balance of the agent's token account -> its pending confidential
 * balance, through `agent_confidential_deposit` (the program signs as the account's owner). The
 * amount is public by nature; it becomes spendable after `applyAgentPendingBalance`.
 */
import { address, type TransactionSigner } from "@solana/kit";
import type { ClusterPort } from "../cluster/cluster-port";
import { assertAmount, MAX_U64 } from "../confidential/amounts";
import { ConfidentialError } from "../confidential/errors";
import { readConfidentialState } from "../confidential/token-account";
import { signTransaction, submit } from "../confidential/transactions";
import { findAgentTokenAccount, resolveAgentAddress } from "./agent-account";
import { buildAgentConfidentialDepositInstruction } from "./instructions";

export interface AgentDepositInput {
  /** The agent's owner or its agent signer. */
  readonly authority: TransactionSigner;
  /** The agent's address or handle. */
  readonly agent: string;
  readonly mint: string;
  readonly amount: bigint;
  /** Pays the fee; defaults to the authority. */
  readonly payer?: TransactionSigner;
}

/** Moves `amount` of the agent account's public balance into its pending confidential balance. */
export async function depositAgentConfidential(
  cluster: ClusterPort,
  input: AgentDepositInput,
): Promise<{ readonly signature: string }> {
  assertAmount(input.amount, MAX_U64);
  const agent = await resolveAgentAddress(cluster, input.agent);
  const tokenAccount = await findAgentTokenAccount(agent, input.mint);
  if (readConfidentialState(cluster, tokenAccount) === null) {
    throw new ConfidentialError("account_not_confidential_ready", `${tokenAccount} is not configured`);
  }
  const transaction = await signTransaction({
    step: "deposit",
    feePayer: input.payer ?? input.authority,
    blockhash: cluster.getLatestBlockhash(),
    instructions: [
      buildAgentConfidentialDepositInstruction({
        authority: input.authority,
        agent,
        tokenAccount,
        mint: address(input.mint),
        amount: input.amount,
        programAddress: address(cluster.programId),
      }),
    ],
  });
  return { signature: await submit(cluster, transaction) };
}
