/**
 * An agent's own transfer (its agent-scoped API key): the agent PDA spends through the program,
 * signed by the agent signer, and the program applies every rule of the spend policy — the API
 * checks none. The program executes the transfer, refuses it (policy-refusal.ts maps why), or
 * holds it for the owner when the amount is above the HITL threshold.
 *
 * - Public: one transaction [CreateATA-idempotent for the recipient when the plan opens its account,
 *   `agent_transfer`, `transfer_record` with the encrypted memo (agent-transfer-record.ts), and
 *   when the plan charges an account-opening fee (account-opening.ts) a TransferChecked of it from
 *   the OWNER's public balance to the service's fee account, signed for the owner by the service:
 *   the agent's tokens are its PDA's, which only the program moves]. Whether it executed or held is
 *   read from the program's events in the landed transaction; the fee is paid either way, since the
 *   account was opened either way.
 * - Confidential: `transferAgentConfidential` (six transactions, the limits proved over an amount the
 *   program never sees). A memo is refused before anything is written (create-transfer.ts): the
 *   final transaction is 1,057 of 1,232 bytes (measured, tests/api/transfers-agent.test.ts), and a
 *   record needs 72 bytes plus a 33-byte envelope plus the memo — room for ~70 memo bytes, not the
 *   200 the API accepts; one memo limit for every path beats a limit that depends on the path.
 *   Without a receipt, a final transaction that expired is signed again only on the finalized proof
 *   that it can never land (resubmission.ts).
 */
import { buildAgentTransferInstruction } from "@cpay/sdk";
import { readAgentAccount, readHold, transferAgentConfidential } from "@cpay/sdk/agent-confidential";
import { confirmedTransaction } from "@cpay/sdk/chain";
import { findTokenAccount } from "@cpay/sdk/confidential";
import { type Address, address } from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import { sendInstructions } from "../chain/send-instructions";
import type { ServiceContext } from "../core/service-context";
import { feeAccountOf } from "../reserve/fee-account";
import { reservePayer } from "../reserve/reserve-scope";
import { buildAgentTransferRecord } from "./agent-transfer-record";
import { feeWalletOf, type Sender } from "./sender";
import { type OutcomeBinding, transferOutcomeIn } from "./transfer-outcome";
import type { Submission, TransferPlan } from "./transfer-plan";

type AgentSender = Extract<Sender, { kind: "agent" }>;

/** Submits the plan from the agent's account; throws what the chain or the SDK threw. */
export async function submitAgentTransfer(
  service: ServiceContext,
  sender: AgentSender,
  plan: TransferPlan,
): Promise<Submission> {
  return plan.confidential
    ? confidentialTransfer(service, sender, plan)
    : publicTransfer(service, sender, plan);
}

async function publicTransfer(
  service: ServiceContext,
  sender: AgentSender,
  plan: TransferPlan,
): Promise<Submission> {
  const programAddress = address(service.chain.programId);
  const mint = plan.asset.mint;
  const [source, destination, { nextHoldNonce }] = await Promise.all([
    findTokenAccount(sender.agent, mint),
    findTokenAccount(plan.recipient.wallet, mint),
    readAgentAccount(service.chain, sender.agent),
  ]);
  const opening = plan.opening.opens
    ? [
        getCreateAssociatedTokenIdempotentInstruction({
          payer: reservePayer(service),
          ata: destination,
          owner: plan.recipient.wallet,
          mint,
          tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
        }),
      ]
    : [];
  const instructions = [
    ...opening,
    await buildAgentTransferInstruction({
      agentSigner: sender.agentSigner,
      agent: sender.agent,
      nextHoldNonce,
      mint,
      source,
      destination,
      amount: plan.amount,
      transferId: plan.transferId,
      payer: reservePayer(service),
      ...(plan.recipient.handle === null ? {} : { recipientHandle: plan.recipient.handle }),
      programAddress,
    }),
    await buildAgentTransferRecord(service, {
      sender,
      transferId: plan.transferId,
      memo: plan.memo,
      source,
      destination,
      mint,
    }),
    ...(await feeInstructions(service, sender, plan)),
  ];
  const signature = await sendInstructions(service, instructions);
  const pending = await heldIn(service, signature, plan.id, {
    agent: sender.agent,
    moves: (moved) => moved.destination === destination && moved.mint === mint && !moved.confidential,
  });
  if (pending === null) return { outcome: "executed", signature, signatures: [signature] };
  return { outcome: "held", signature, signatures: [signature], hold: await holdAt(service, pending) };
}

/** The owner's payment of the plan's account-opening fee, or nothing when it charges none. */
async function feeInstructions(service: ServiceContext, sender: AgentSender, plan: TransferPlan) {
  if (plan.opening.fee === 0n) return [];
  const owner = await feeWalletOf(service, sender);
  const mint = plan.asset.mint;
  return [
    getTransferCheckedInstruction({
      source: await findTokenAccount(owner.address, mint),
      mint,
      destination: await feeAccountOf(service),
      authority: owner,
      amount: plan.opening.fee,
      decimals: plan.asset.decimals,
    }),
  ];
}

async function confidentialTransfer(
  service: ServiceContext,
  sender: AgentSender,
  plan: TransferPlan,
): Promise<Submission> {
  const result = await transferAgentConfidential(service.chain, {
    agentSigner: sender.agentSigner,
    agent: sender.agent,
    keys: sender.keys,
    mint: plan.asset.mint,
    recipient: plan.recipient.wallet,
    ...(plan.recipient.handle === null ? {} : { recipientHandle: plan.recipient.handle }),
    amount: plan.amount,
    transferId: plan.transferId,
    payer: reservePayer(service),
  });
  const signature = result.signatures[result.signatures.length - 1] as string;
  if (result.outcome === "executed" || result.pending === undefined) {
    return { outcome: "executed", signature, signatures: result.signatures };
  }
  return {
    outcome: "held",
    signature,
    signatures: result.signatures,
    hold: await holdAt(service, result.pending),
  };
}

/** The hold the landed transaction `signature` created for this transfer id, or null if it executed. */
async function heldIn(
  service: ServiceContext,
  signature: string,
  id: string,
  binding: OutcomeBinding,
): Promise<Address | null> {
  const landed = await confirmedTransaction(service.chain, signature);
  if (landed === null) return null;
  const found = await transferOutcomeIn(landed.logs, address(service.chain.programId), id, binding);
  return found?.outcome === "held" ? found.pending : null;
}

async function holdAt(service: ServiceContext, pending: Address) {
  const hold = await readHold(service.chain, pending);
  if (hold === null) throw new Error(`the hold ${pending} the program just created is not readable`);
  return hold;
}
