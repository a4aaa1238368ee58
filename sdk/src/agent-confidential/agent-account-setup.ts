/**
 * Confidential transfers for an agent's token account: the account belongs to the agent PDA, so
 * Token-2022's ConfigureAccount is signed by the program (`agent_confidential_configure`), not by a
 * wallet. One transaction: CreateATA-idempotent (owner = the agent PDA) -> agent_confidential_configure
 * (CPIs Reallocate + ConfigureAccount) -> VerifyPubkeyValidity (read through the instructions
 * sysvar). Either the account is ready or nothing landed.
 */
import { address, type TransactionSigner } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import { configureTokenAccountOnce, DEFAULT_MAXIMUM_PENDING_CREDITS } from "../confidential/account-setup";
import type { ConfidentialKeyset } from "../confidential/keys";
import { tokenAccountOf } from "../confidential/token-account";
import { agentAccountOf, findAgentTokenAccount, resolveAgentAddress } from "./agent-account";
import { buildAgentConfidentialConfigureInstructions } from "./instructions";

export interface SetupAgentConfidentialAccountInput {
  /** The agent's owner or its agent signer. */
  readonly authority: TransactionSigner;
  /** The agent's address or handle (`owner/name`). */
  readonly agent: string;
  readonly mint: string;
  /** The agent's confidential keys for this account (held by whoever builds its proofs). */
  readonly keys: ConfidentialKeyset;
  /** Pays the fee, the account's rent and its reallocation; defaults to the authority. */
  readonly payer?: TransactionSigner;
  readonly maximumPendingCredits?: bigint;
}

/**
 * Creates (if needed) and configures the agent's confidential token account. Idempotent: an
 * account already configured with these keys returns `signature: null`; one configured with
 * another ElGamal key throws `account_key_mismatch`.
 */
export async function setupAgentConfidentialAccount(
  chain: ChainPort,
  input: SetupAgentConfidentialAccountInput,
): Promise<{ readonly agent: string; readonly tokenAccount: string; readonly signature: string | null }> {
  const agent = await resolveAgentAddress(chain, input.agent);
  const tokenAccount = await findAgentTokenAccount(agent, input.mint);
  // One read of both accounts; the agent must exist (agent_not_found) before anything else.
  const [agentRecord, tokenRecord] = await chain.getMultipleAccounts([agent, tokenAccount]);
  agentAccountOf(chain.programId, agent, agentRecord ?? null);
  const payer = input.payer ?? input.authority;
  const mint = address(input.mint);
  const signature = await configureTokenAccountOnce(chain, {
    tokenAccount,
    existing: tokenAccountOf(tokenAccount, tokenRecord ?? null)?.confidential ?? null,
    keys: input.keys,
    payer,
    owner: agent,
    mint,
    // Configure, then its proof right after it (proof_instruction_offset = 1).
    configure: () =>
      buildAgentConfidentialConfigureInstructions({
        authority: input.authority,
        agent,
        tokenAccount,
        mint,
        payer,
        keys: input.keys,
        maximumPendingCredits: input.maximumPendingCredits ?? DEFAULT_MAXIMUM_PENDING_CREDITS,
        programAddress: address(chain.programId),
      }),
  });
  return { agent, tokenAccount, signature };
}
