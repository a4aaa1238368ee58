/**
 * Withdraw for an agent's account: available confidential -> public balance of the same account,
 * through `agent_confidential_withdraw` (the public rules apply to whatever later leaves it). The
 * proofs are a wallet withdraw's (withdraw-proofs.ts) in context accounts whose authority is the
 * payer, who closes them after the program instruction in the final transaction: 3 transactions
 * ([equality ctx] ∥ [U64 range ctx] -> [withdraw + closes]), same failure guarantees as a wallet
 * withdraw (proof-contexts.ts). Refused while a confidential hold is open (`confidential_hold_open`).
 */
import { address, type TransactionSigner } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import { runExclusive } from "../confidential/account-queue";
import { assertAmount, MAX_U64 } from "../confidential/amounts";
import { availableBalance } from "../confidential/balance";
import type { ConfidentialKeyset } from "../confidential/keys";
import { runWithProofContexts } from "../confidential/proof-contexts";
import { buildWithdrawProofs, withdrawContextProofs } from "../confidential/withdraw-proofs";
import {
  assertNoOpenHold,
  findAgentTokenAccount,
  readAgentConfidentialAccounts,
  resolveAgentAddress,
} from "./agent-account";
import { buildAgentConfidentialWithdrawInstruction } from "./instructions";

export interface AgentWithdrawInput {
  /** The agent's owner or its agent signer. */
  readonly authority: TransactionSigner;
  /** The agent's address or handle. */
  readonly agent: string;
  readonly keys: ConfidentialKeyset;
  readonly mint: string;
  readonly amount: bigint;
  /** Pays fees and the contexts' rent (returned in the final transaction); defaults to the authority. */
  readonly payer?: TransactionSigner;
}

/** Moves `amount` of the agent account's available confidential balance to its public balance. */
export async function withdrawAgentConfidential(
  chain: ChainPort,
  input: AgentWithdrawInput,
): Promise<{ readonly signatures: readonly string[] }> {
  assertAmount(input.amount, MAX_U64);
  const agent = await resolveAgentAddress(chain, input.agent);
  const tokenAccount = await findAgentTokenAccount(agent, input.mint);
  return runExclusive(chain, tokenAccount, async () => {
    const { state, agentAccount } = await readAgentConfidentialAccounts(chain, agent, tokenAccount);
    assertNoOpenHold(agentAccount());
    const proofs = buildWithdrawProofs({
      keys: input.keys,
      availableCiphertext: state.availableBalance,
      availableBalance: availableBalance(state, input.keys),
      amount: input.amount,
    });
    return runWithProofContexts({
      chain,
      payer: input.payer ?? input.authority,
      proofs: withdrawContextProofs(proofs),
      finalStep: "withdraw",
      finalInstructions: (contexts) => [
        buildAgentConfidentialWithdrawInstruction({
          authority: input.authority,
          agent,
          tokenAccount,
          mint: address(input.mint),
          equalityProof: required(contexts.get("equality_proof")),
          rangeProof: required(contexts.get("range_proof")),
          amount: input.amount,
          newDecryptableAvailableBalance: proofs.newDecryptableAvailableBalance,
          programAddress: address(chain.programId),
        }),
      ],
    });
  });
}

function required<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("missing proof context");
  return value;
}
