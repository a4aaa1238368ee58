/**
 * Deposit for an agent: public balance of the agent's token account -> its pending confidential
 * balance, through `agent_confidential_deposit` (the program signs as the account's owner). The
 * amount is public by nature; it becomes spendable after `applyAgentPendingBalance`.
 */
import { address, type TransactionSigner } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import { assertAmount, MAX_U64 } from "../confidential/amounts";
import { readConfidentialState, requireConfidentialState } from "../confidential/token-account";
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
  chain: ChainPort,
  input: AgentDepositInput,
): Promise<{ readonly signature: string }> {
  assertAmount(input.amount, MAX_U64);
  const agent = await resolveAgentAddress(chain, input.agent);
  const tokenAccount = await findAgentTokenAccount(agent, input.mint);
  const [state, blockhash] = await Promise.all([
    readConfidentialState(chain, tokenAccount),
    chain.getLatestBlockhash(),
  ]);
  requireConfidentialState(tokenAccount, state);
  const transaction = await signTransaction({
    step: "deposit",
    feePayer: input.payer ?? input.authority,
    blockhash,
    instructions: [
      buildAgentConfidentialDepositInstruction({
        authority: input.authority,
        agent,
        tokenAccount,
        mint: address(input.mint),
        amount: input.amount,
        programAddress: address(chain.programId),
      }),
    ],
  });
  return { signature: await submit(chain, transaction) };
}
