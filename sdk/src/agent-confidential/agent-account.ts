/**
 * Finding an agent and reading what its confidential flows need from its `Agent` account
 * (state/agent.rs): who may sign, the next hold's nonce and the open confidential hold. Raw bytes
 * after the owner, length and discriminator checks (a trust boundary), so the confidential field
 * reads the same whatever the generated decoder calls it.
 *
 * | offset | size | field |
 * |---|---|---|
 * | 8 | 32 | owner |
 * | 40 | 32 | agent_signer |
 * | 106 | 1 | status (1 active) |
 * | 172 | 8 | next_hold_nonce u64 |
 * | 180 | 4 | open_holds u32 |
 * | 192 | 32 | confidential_hold: the open confidential PendingTransaction, zero if none |
 */
import { type Address, address, getAddressDecoder, isAddress } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import type { AccountRecord } from "../chain/chain-types";
import { ConfidentialError } from "../confidential/errors";
import {
  type ConfidentialAccountState,
  findTokenAccount,
  requireConfidentialState,
  tokenAccountOf,
} from "../confidential/token-account";
import { AGENT_DISCRIMINATOR, getAgentSize, getHandleSize, HANDLE_DISCRIMINATOR } from "../generated";
import { findAgentPda, findHandlePda } from "../program/pdas";
import { isProgramAccount } from "../program/program-account";

const STATUS_OFFSET = 106;
const STATUS_ACTIVE = 1;

export interface AgentAccount {
  readonly address: Address;
  readonly owner: Address;
  readonly agentSigner: Address;
  /** The status byte is active: the program refuses every spend of an agent that is not (`AgentNotActive`). */
  readonly active: boolean;
  readonly nextHoldNonce: bigint;
  readonly openHolds: number;
  /** The open confidential hold, or null. */
  readonly confidentialHold: Address | null;
}

/** An agent's address from its address or its handle (`owner/name`, normalised here). */
export async function resolveAgentAddress(chain: ChainPort, agent: string): Promise<Address> {
  if (isAddress(agent)) return agent;
  const [pda] = await findAgentPda({ agentHandle: agent }, { programAddress: address(chain.programId) });
  return pda;
}

/** The agent's Token-2022 account of `mint`: its associated token account (owner = the agent PDA). */
export function findAgentTokenAccount(agent: Address, mint: string): Promise<Address> {
  return findTokenAccount(agent, mint);
}

/** Reads the agent at `agent`; throws `agent_not_found` when there is no agent account there. */
export async function readAgentAccount(chain: ChainPort, agent: Address): Promise<AgentAccount> {
  return agentAccountOf(chain.programId, agent, await chain.getAccount(agent));
}

/** readAgentAccount over an account already read; `programId` is the agent-policy program. */
export function agentAccountOf(
  programId: string,
  agent: Address,
  account: AccountRecord | null,
): AgentAccount {
  if (!isProgramAccount(account, programId, AGENT_DISCRIMINATOR, getAgentSize())) {
    throw new ConfidentialError("agent_not_found", `no agent account at ${agent}`);
  }
  const data = account.data;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const addressAt = (offset: number) => getAddressDecoder().decode(data, offset);
  const hold = data.subarray(192, 224);
  return {
    address: agent,
    owner: addressAt(8),
    agentSigner: addressAt(40),
    active: data[STATUS_OFFSET] === STATUS_ACTIVE,
    nextHoldNonce: view.getBigUint64(172, true),
    openHolds: view.getUint32(180, true),
    confidentialHold: hold.every((byte) => byte === 0) ? null : addressAt(192),
  };
}

/**
 * Throws `confidential_hold_open` while the agent has an open confidential hold: the program
 * refuses the agent's other confidential moves until it closes (its proofs were made against the
 * balance).
 */
export function assertNoOpenHold(agent: AgentAccount): void {
  if (agent.confidentialHold !== null) {
    throw new ConfidentialError(
      "confidential_hold_open",
      `the agent's confidential hold ${agent.confidentialHold} is open`,
    );
  }
}

/**
 * One read (one slot) of an agent's token account and its agent account: the token account's
 * confidential state (`account_not_confidential_ready` when it has none) and the agent, decoded
 * (and `agent_not_found` thrown) only when asked for, so callers report failures in their order.
 */
export async function readAgentConfidentialAccounts(
  chain: ChainPort,
  agent: Address,
  tokenAccount: Address,
): Promise<{ readonly state: ConfidentialAccountState; readonly agentAccount: () => AgentAccount }> {
  const [tokenRecord, agentRecord] = await chain.getMultipleAccounts([tokenAccount, agent]);
  const token = tokenAccountOf(tokenAccount, tokenRecord ?? null);
  return {
    state: requireConfidentialState(tokenAccount, token?.confidential ?? null),
    agentAccount: () => agentAccountOf(chain.programId, agent, agentRecord ?? null),
  };
}

/**
 * The wallet an account handle names (read from its Handle account), for paying a handle: a
 * recipient given as an address is returned as it is.
 */
export async function resolveRecipientWallet(chain: ChainPort, recipient: string): Promise<Address> {
  if (isAddress(recipient)) return recipient;
  const [handle] = await findHandlePda({ handle: recipient }, { programAddress: address(chain.programId) });
  const account = await chain.getAccount(handle);
  if (!isProgramAccount(account, chain.programId, HANDLE_DISCRIMINATOR, getHandleSize())) {
    throw new ConfidentialError("recipient_not_confidential_ready", `no handle ${recipient} is registered`);
  }
  return getAddressDecoder().decode(account.data, 8);
}
