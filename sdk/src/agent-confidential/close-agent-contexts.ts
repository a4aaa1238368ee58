/**
 * Closing proof contexts whose authority is the agent PDA. Only the program can sign for the PDA,
 * so CloseContextState goes through `agent_confidential_close_contexts`, signed by the agent's
 * owner or agent signer, at most six contexts per instruction; the rent goes to whoever paid it.
 * The program refuses it while a confidential hold is open (the hold's pinned contexts must stay).
 */
import { type Address, address, type Instruction, type TransactionSigner } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import { closeContexts } from "../confidential/close-proof-contexts";
import type { ContextAuthority } from "../confidential/proof-contexts";
import { resolveAgentAddress } from "./agent-account";
import { buildAgentConfidentialCloseContextsInstruction, MAX_CONTEXTS_PER_CLOSE } from "./instructions";

/**
 * The agent PDA as the contexts' authority for `runWithProofContexts`: the program's final
 * instruction closes them; after a failure `agent_confidential_close_contexts` does.
 */
export function agentContextAuthority(
  chain: ChainPort,
  input: {
    readonly agent: Address;
    readonly authority: TransactionSigner;
    readonly rentReceiver: TransactionSigner;
  },
): ContextAuthority {
  return {
    address: input.agent,
    closedByFinalInstructions: true,
    close: async (contexts) => closeInstructions(chain, { ...input, contexts }),
  };
}

/**
 * Closes contexts left by a failed agent transfer (e.g. reported `orphaned`): verified ones through
 * the program, unverified ones by verifying a proof into them with the payer as authority and
 * closing them. Returns the addresses still open.
 */
export async function closeAgentProofContexts(
  chain: ChainPort,
  input: {
    /** The agent's owner or its agent signer. */
    readonly authority: TransactionSigner;
    readonly agent: string;
    /** Pays the fees and receives the rent. */
    readonly payer: TransactionSigner;
    readonly addresses: readonly string[];
  },
): Promise<string[]> {
  const agent = await resolveAgentAddress(chain, input.agent);
  await closeContexts(
    chain,
    input.payer,
    input.addresses.map((context) => ({ address: context, initializeWith: null })),
    async (contexts) =>
      closeInstructions(chain, { agent, authority: input.authority, rentReceiver: input.payer, contexts }),
  );
  const accounts = await chain.getMultipleAccounts(input.addresses);
  return input.addresses.filter((_, index) => accounts[index] !== null);
}

function closeInstructions(
  chain: ChainPort,
  input: {
    readonly agent: Address;
    readonly authority: TransactionSigner;
    readonly rentReceiver: TransactionSigner;
    readonly contexts: readonly Address[];
  },
): Instruction[] {
  const instructions: Instruction[] = [];
  for (let start = 0; start < input.contexts.length; start += MAX_CONTEXTS_PER_CLOSE) {
    instructions.push(
      buildAgentConfidentialCloseContextsInstruction({
        authority: input.authority,
        agent: input.agent,
        rentReceiver: input.rentReceiver.address,
        contexts: input.contexts.slice(start, start + MAX_CONTEXTS_PER_CLOSE),
        programAddress: address(chain.programId),
      }),
    );
  }
  return instructions;
}
