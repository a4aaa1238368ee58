/**
 * ApplyPendingBalance for an agent's account, through `agent_confidential_apply`: the prover
 * supplies the expected credit counter and the AE copy of available + pending, so it decrypts the
 * pending lo/hi halves first (balance.ts), only when credits are pending. Runs in the account's
 * queue (account-queue.ts) so it never races the agent's own transfers and withdraws. The program
 * refuses it while a confidential hold is open: the hold's proofs were made against the balance.
 */
import { address, type TransactionSigner } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import { runExclusive } from "../confidential/account-queue";
import { MAX_U64 } from "../confidential/amounts";
import { availableBalance, decryptPendingBalance } from "../confidential/balance";
import { ConfidentialError } from "../confidential/errors";
import type { ConfidentialKeyset } from "../confidential/keys";
import { signTransaction, submit } from "../confidential/transactions";
import {
  assertNoOpenHold,
  findAgentTokenAccount,
  readAgentConfidentialAccounts,
  resolveAgentAddress,
} from "./agent-account";
import { buildAgentConfidentialApplyInstruction } from "./instructions";

export interface AgentApplyPendingBalanceInput {
  /** The agent's owner or its agent signer. */
  readonly authority: TransactionSigner;
  /** The agent's address or handle. */
  readonly agent: string;
  readonly mint: string;
  readonly keys: ConfidentialKeyset;
  /** Pays the fee; defaults to the authority. */
  readonly payer?: TransactionSigner;
}

/**
 * Applies the agent account's pending balance; `signature: null` when nothing is pending. Throws
 * `confidential_hold_open` (nothing sent) while the agent has an open confidential hold.
 */
export async function applyAgentPendingBalance(
  chain: ChainPort,
  input: AgentApplyPendingBalanceInput,
): Promise<{ readonly signature: string | null }> {
  const agent = await resolveAgentAddress(chain, input.agent);
  const tokenAccount = await findAgentTokenAccount(agent, input.mint);
  return runExclusive(chain, tokenAccount, async () => {
    const { state, agentAccount } = await readAgentConfidentialAccounts(chain, agent, tokenAccount);
    if (state.pendingBalanceCreditCounter === 0n) return { signature: null };
    assertNoOpenHold(agentAccount());
    const newAvailable = availableBalance(state, input.keys) + decryptPendingBalance(state, input.keys);
    if (newAvailable > MAX_U64) throw new ConfidentialError("invalid_amount", "the balance would exceed u64");
    const transaction = await signTransaction({
      step: "apply_pending_balance",
      feePayer: input.payer ?? input.authority,
      blockhash: await chain.getLatestBlockhash(),
      instructions: [
        buildAgentConfidentialApplyInstruction({
          authority: input.authority,
          agent,
          tokenAccount,
          expectedPendingBalanceCreditCounter: state.pendingBalanceCreditCounter,
          newDecryptableAvailableBalance: input.keys.ae.encrypt(newAvailable).toBytes(),
          programAddress: address(chain.programId),
        }),
      ],
    });
    return { signature: await submit(chain, transaction) };
  });
}
