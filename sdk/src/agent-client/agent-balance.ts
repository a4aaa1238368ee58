/**
 * The agent's own balance of one mint, read from its token account (owned by the agent PDA) and
 * decrypted here with the agent's keys: the public amount as the chain holds it, the confidential
 * available balance (its AE copy: confidential/balance.ts) and what is pending (credits received but
 * not yet applied to the available balance). Only the agent's process sees these figures.
 */
import type { Address } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import { availableBalance, decryptPendingBalance } from "../confidential/balance";
import type { ConfidentialKeyset } from "../confidential/keys";
import { findTokenAccount, readTokenAccount } from "../confidential/token-account";

/** Base units. */
export interface AgentBalance {
  readonly public: bigint;
  /** What confidential transfers can spend now. */
  readonly confidentialAvailable: bigint;
  /** Received confidentially, not yet applied (it becomes available once applied). */
  readonly confidentialPending: bigint;
}

/** Reads and decrypts the balance of `agent` in `mint` (zero when it has no token account yet). */
export async function readAgentBalance(
  chain: ChainPort,
  input: { readonly agent: Address; readonly mint: Address; readonly keys: ConfidentialKeyset },
): Promise<AgentBalance> {
  const state = await readTokenAccount(chain, await findTokenAccount(input.agent, input.mint));
  if (state === null) return { public: 0n, confidentialAvailable: 0n, confidentialPending: 0n };
  const confidential = state.confidential;
  return {
    public: state.amount,
    confidentialAvailable: confidential === null ? 0n : availableBalance(confidential, input.keys),
    confidentialPending: confidential === null ? 0n : decryptPendingBalance(confidential, input.keys),
  };
}
