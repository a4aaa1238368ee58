/**
 * Deciding holds, confidential ones included. A confidential hold pins the transfer's three
 * Token-2022 contexts (authority: the agent PDA) at offsets 288/320/352 of its PendingTransaction;
 * approving, rejecting or closing it passes them back, and the program closes them (rent to the
 * hold's rent payer). Approval executes the pinned transfer, counted on the day of approval, as
 * long as the policy was not tightened since (`ConfidentialHoldPolicyTightened`: reject, resubmit).
 * Public holds are decided by the same functions (without contexts).
 */
import { type Address, address, type Instruction, type TransactionSigner } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import { ConfidentialError, type ConfidentialStep } from "../confidential/errors";
import { signTransaction, submit } from "../confidential/transactions";
import { getPendingCloseExpiredInstruction, getPendingRejectInstruction } from "../generated";
import {
  buildConfidentialPendingApproveInstruction,
  buildConfidentialPendingCloseExpiredInstruction,
  buildConfidentialPendingRejectInstruction,
} from "./instructions";
import { readHold } from "./list-pending-transactions";
import type { Hold } from "./pending-transaction";

export interface HoldDecisionInput {
  /** The agent's owner (only the owner decides holds). */
  readonly owner: TransactionSigner;
  readonly pending: Address;
  /** Pays the fee; defaults to the owner. */
  readonly payer?: TransactionSigner;
}

/** Approves the confidential hold at `pending`: the pinned transfer executes now. */
export async function approveConfidentialHold(
  chain: ChainPort,
  input: HoldDecisionInput,
): Promise<{ readonly signature: string }> {
  const hold = await confidentialHold(chain, input.pending);
  const instruction = await buildConfidentialPendingApproveInstruction({
    owner: input.owner,
    hold,
    programAddress: address(chain.programId),
  });
  return send(chain, "approve_hold", input.payer ?? input.owner, instruction);
}

/** Rejects the hold at `pending` (public or confidential): nothing moves, rent goes back. */
export async function rejectHold(
  chain: ChainPort,
  input: HoldDecisionInput,
): Promise<{ readonly signature: string }> {
  const hold = await anyHold(chain, input.pending);
  const programAddress = address(chain.programId);
  const instruction = hold.confidential
    ? buildConfidentialPendingRejectInstruction({ owner: input.owner, hold, programAddress })
    : getPendingRejectInstruction(
        { owner: input.owner, agent: hold.agent, pending: hold.address, rentReceiver: hold.rentPayer },
        { programAddress },
      );
  return send(chain, "reject_hold", input.payer ?? input.owner, instruction);
}

/** Closes the expired hold at `pending` (anyone may; `payer` pays the fee), rent to its payer. */
export async function closeExpiredHold(
  chain: ChainPort,
  input: { readonly pending: Address; readonly payer: TransactionSigner },
): Promise<{ readonly signature: string }> {
  const hold = await anyHold(chain, input.pending);
  const programAddress = address(chain.programId);
  const instruction = hold.confidential
    ? buildConfidentialPendingCloseExpiredInstruction({ hold, programAddress })
    : getPendingCloseExpiredInstruction(
        { agent: hold.agent, pending: hold.address, rentReceiver: hold.rentPayer },
        { programAddress },
      );
  return send(chain, "close_expired_hold", input.payer, instruction);
}

async function anyHold(chain: ChainPort, pending: Address): Promise<Hold> {
  const hold = await readHold(chain, pending);
  if (hold === null) throw new ConfidentialError("hold_not_found", `no hold at ${pending}`);
  return hold;
}

async function confidentialHold(chain: ChainPort, pending: Address): Promise<Hold> {
  const hold = await anyHold(chain, pending);
  if (!hold.confidential)
    throw new ConfidentialError("hold_not_found", `${pending} is not a confidential hold`);
  return hold;
}

async function send(
  chain: ChainPort,
  step: ConfidentialStep,
  payer: TransactionSigner,
  instruction: Instruction,
): Promise<{ readonly signature: string }> {
  const transaction = await signTransaction({
    step,
    feePayer: payer,
    blockhash: await chain.getLatestBlockhash(),
    instructions: [instruction],
  });
  return { signature: await submit(chain, transaction) };
}
