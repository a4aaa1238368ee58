/**
 * The agent's open holds, public and confidential, from the chain (getProgramAccounts over the
 * agent-policy program). A confidential hold is listed with `amount: null`: the chain does not
 * know its amount and the SDK never reports one for it.
 */
import type { Address } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import { resolveAgentAddress } from "./agent-account";
import { decodeHold, type Hold } from "./pending-transaction";

/** Every open hold of `agent` (address or handle), oldest nonce first. */
export async function listAgentPendingTransactions(chain: ChainPort, agent: string): Promise<Hold[]> {
  const agentAddress = await resolveAgentAddress(chain, agent);
  return (await chain.getProgramAccounts(chain.programId))
    .map((account) => decodeHold(account.address as Address, account.data))
    .filter((hold): hold is Hold => hold !== null && hold.agent === agentAddress)
    .sort((a, b) => (a.nonce < b.nonce ? -1 : a.nonce > b.nonce ? 1 : 0));
}

/** The hold at `pending`, or null when there is none (never created, or closed). */
export async function readHold(chain: ChainPort, pending: Address): Promise<Hold | null> {
  const account = await chain.getAccount(pending);
  if (account === null || account.owner !== chain.programId) return null;
  return decodeHold(pending, account.data);
}
