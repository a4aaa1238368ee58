/**
 * One x402 `exact` payment by an agent's PDA, built and signed by the agent signer, the fee payer's
 * signature left for the facilitator:
 *
 *   [SetComputeUnitLimit, SetComputeUnitPrice, agent_transfer, Memo (when the requirement asks)]
 *
 * `agent_transfer` spends from the agent's token account to `payTo`'s associated token account, so
 * the program applies the whole policy on-chain (limits, recipients by address, assets, active
 * hours, HITL), and the facilitator finds its CPI `TransferChecked` (authority: the agent PDA, a
 * signer of nothing) in simulation: `@x402/svm`'s smart-wallet verification, with this program on
 * its allowed list. The fee payer (`extra.feePayer`) is account 0 and appears in no instruction:
 * `agent_transfer`'s `payer` (who would pay a hold's rent) is the agent signer.
 *
 * Before anything is signed, in this order: the program's decision (`previewAgentTransfer`, the
 * SDK's `decideAgentSpend`: the rules `preview_payment` and `/v1`'s pre-check use) — refused names
 * its rule, above the HITL threshold asks for the owner's approval instead; then `payTo`'s token
 * account must exist and the agent's balance cover the amount; then `beforeSigning` (a human's
 * confirmation, say) may still stop it. Each stop is an `AgentX402Error` and nothing was signed.
 */

import {
  type Address,
  createNoopSigner,
  getBase64Decoder,
  type Instruction,
  type TransactionSigner,
} from "@solana/kit";
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from "@solana-program/compute-budget";
import { MEMO_PROGRAM_ADDRESS } from "@x402/svm";
import { previewAgentTransfer } from "../agent-client/preview-transfer";
import { agentAccountOf } from "../agent-confidential/agent-account";
import type { ChainPort } from "../chain/chain-port";
import { PACKET_DATA_SIZE, partiallySignTransactionToWire } from "../chain/sign-transaction";
import { findTokenAccount, tokenAccountOf } from "../confidential/token-account";
import { buildAgentTransferInstruction } from "../program/instructions";
import type { ExactSvmRequirement } from "./exact-requirement";
import { AgentX402Error, policyRefused, unpayable } from "./x402-errors";

/**
 * The compute-unit limit the payment asks for. The whole payment (compute budget, `agent_transfer`
 * with its CPI TransferChecked, a memo) last measured 5,385 units on the localnet's USDG
 * (tests/x402 pins that); the rest is room for mints with more extensions. Far below the
 * facilitators' caps (`@x402/svm`'s smart-wallet default is 400,000).
 */
export const X402_COMPUTE_UNIT_LIMIT = 40_000;
/** Micro-lamports per compute unit: `@x402/svm`'s own client default (its caps: 50,000 smart-wallet, 5,000,000 static). */
export const X402_COMPUTE_UNIT_PRICE_MICRO_LAMPORTS = 1n;

export interface AgentX402PaymentInput {
  readonly agentSigner: TransactionSigner;
  /** The agent's PDA (its `public_key`). */
  readonly agent: Address;
  readonly programAddress: Address;
  readonly requirement: ExactSvmRequirement;
  /** 16 bytes, carried by the program's event: the transfer's id in the owner's records. */
  readonly transferId: Uint8Array;
  /** Runs once the payment is decided payable, before it is signed; throwing stops it. */
  readonly beforeSigning?: (requirement: ExactSvmRequirement) => Promise<void>;
}

/** The partially signed payment (base64 wire bytes: the exact scheme's `payload.transaction`). */
export async function buildAgentX402Payment(chain: ChainPort, input: AgentX402PaymentInput): Promise<string> {
  const { requirement, agent, agentSigner, programAddress } = input;
  if (requirement.feePayer === agentSigner.address || requirement.feePayer === agent) {
    throw unpayable("extra.feePayer", "the fee payer is the agent itself; the facilitator must pay the fee");
  }
  const [source, destination] = await Promise.all([
    findTokenAccount(agent, requirement.mint),
    findTokenAccount(requirement.payTo, requirement.mint),
  ]);
  const [decision, [sourceRecord, destinationRecord, agentRecord]] = await Promise.all([
    previewAgentTransfer(chain, {
      agent,
      programAddress,
      mint: requirement.mint,
      recipient: requirement.payTo,
      amount: requirement.amount,
      confidential: false,
    }),
    chain.getMultipleAccounts([source, destination, agent]),
  ]);
  if (decision.outcome === "refused") throw policyRefused(decision.rule);
  if (decision.outcome === "held") {
    throw new AgentX402Error(
      "approval_required",
      "the amount is above the agent's human-approval threshold: the owner must approve such a payment, and an x402 payment cannot wait for an approval; nothing was signed",
      "hitl_threshold_usdg",
    );
  }
  if (tokenAccountOf(destination, destinationRecord ?? null) === null) {
    throw new AgentX402Error(
      "recipient_account_missing",
      "payTo has no token account for this asset, and an x402 payment cannot open one; nothing was signed",
      "payTo",
    );
  }
  const balance = tokenAccountOf(source, sourceRecord ?? null)?.amount ?? 0n;
  if (balance < requirement.amount) {
    throw new AgentX402Error(
      "insufficient_balance",
      "the agent's public balance of this asset does not cover the amount; nothing was signed",
    );
  }
  await input.beforeSigning?.(requirement);
  const { nextHoldNonce } = agentAccountOf(programAddress, agent, agentRecord ?? null);
  const { blockhash, lastValidBlockHeight } = requirement.blockhash ?? (await chain.getLatestBlockhash());
  const instructions: Instruction[] = [
    getSetComputeUnitLimitInstruction({ units: X402_COMPUTE_UNIT_LIMIT }),
    getSetComputeUnitPriceInstruction({ microLamports: X402_COMPUTE_UNIT_PRICE_MICRO_LAMPORTS }),
    await buildAgentTransferInstruction({
      agentSigner,
      agent,
      nextHoldNonce,
      mint: requirement.mint,
      source,
      destination,
      amount: requirement.amount,
      transferId: input.transferId,
      // Not the fee payer: it must appear in no instruction. Only a hold would charge it rent.
      payer: agentSigner,
      programAddress,
    }),
    ...(requirement.memo === null ? [] : [memoInstruction(requirement.memo)]),
  ];
  const { wire } = await partiallySignTransactionToWire({
    feePayer: createNoopSigner(requirement.feePayer),
    blockhash,
    lastValidBlockHeight,
    instructions,
  });
  if (wire.length > PACKET_DATA_SIZE) {
    throw unpayable("extra.memo", `the payment is ${wire.length} bytes (limit ${PACKET_DATA_SIZE})`);
  }
  return getBase64Decoder().decode(wire);
}

/** The SPL Memo instruction the facilitator compares with `extra.memo` (no accounts: no signer). */
function memoInstruction(memo: string): Instruction {
  return { programAddress: MEMO_PROGRAM_ADDRESS as Address, data: new TextEncoder().encode(memo) };
}
