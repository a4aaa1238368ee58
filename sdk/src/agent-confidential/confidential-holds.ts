/**
 * Deciding holds, confidential ones included. A confidential hold pins the transfer's three
 * Token-2022 contexts (authority: the agent PDA) at offsets 288/320/352 of its PendingTransaction;
 * approving, rejecting or closing it passes them back, and the program closes them (rent to the
 * hold's rent payer). Approval executes the pinned transfer, counted on the day of approval, as
 * long as the policy was not tightened since (`ConfidentialHoldPolicyTightened`: reject, resubmit).
 * Public holds are decided by the same functions (without contexts).
 */
import { type Address, address, type Instruction, type TransactionSigner } from "@solana/kit";
import type { ClusterPort } from "../cluster/cluster-port";
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
  cluster: ClusterPort,
  input: HoldDecisionInput,
): Promise<{ readonly signature: string }> {
  const hold = confidentialHold(cluster, input.pending);
  const instruction = await buildConfidentialPendingApproveInstruction({
    owner: input.owner,
    hold,
    programAddress: address(cluster.programId),
  });
  return send(cluster, "approve_hold", input.payer ?? input.owner, instruction);
}

/** Rejects the hold at `pending` (public or confidential): nothing moves, rent goes back. */
export async function rejectHold(
  cluster: ClusterPort,
  input: HoldDecisionInput,
): Promise<{ readonly signature: string }> {
  const hold = anyHold(cluster, input.pending);
  const programAddress = address(cluster.programId);
  const instruction = hold.confidential
    ? buildConfidentialPendingRejectInstruction({ owner: input.owner, hold, programAddress })
    : getPendingRejectInstruction(
        { owner: input.owner, agent: hold.agent, pending: hold.address, rentReceiver: hold.rentPayer },
        { programAddress },
      );
  return send(cluster, "reject_hold", input.payer ?? input.owner, instruction);
}

/** Closes the expired hold at `pending` (anyone may; `payer` pays the fee), rent to its payer. */
export async function closeExpiredHold(
  cluster: ClusterPort,
  input: { readonly pending: Address; readonly payer: TransactionSigner },
): Promise<{ readonly signature: string }> {
  const hold = anyHold(cluster, input.pending);
  const programAddress = address(cluster.programId);
  const instruction = hold.confidential
    ? buildConfidentialPendingCloseExpiredInstruction({ hold, programAddress })
    : getPendingCloseExpiredInstruction(
        { agent: hold.agent, pending: hold.address, rentReceiver: hold.rentPayer },
        { programAddress },
      );
  return send(cluster, "close_expired_hold", input.payer, instruction);
}

function anyHold(cluster: ClusterPort, pending: Address): Hold {
  const hold = readHold(cluster, pending);
  if (hold === null) throw new ConfidentialError("hold_not_found", `no hold at ${pending}`);
  return hold;
}

function confidentialHold(cluster: ClusterPort, pending: Address): Hold {
  const hold = anyHold(cluster, pending);
  if (!hold.confidential)
    throw new ConfidentialError("hold_not_found", `${pending} is not a confidential hold`);
  return hold;
}

async function send(
  cluster: ClusterPort,
  step: ConfidentialStep,
  payer: TransactionSigner,
  instruction: Instruction,
): Promise<{ readonly signature: string }> {
  const transaction = await signTransaction({
    step,
    feePayer: payer,
    blockhash: cluster.getLatestBlockhash(),
    instructions: [instruction],
  });
  return { signature: await submit(cluster, transaction) };
}
