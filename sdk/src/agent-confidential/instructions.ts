/**
 * Builders for the agent-policy program's confidential instructions, on top of the generated
 * client (CONFIDENTIAL.md "Instructions"): each derives what it can (policy PDA, pending PDA), and
 * adds what the IDL cannot say — the proof instruction that must follow `configure`, the variable
 * context list of `close_contexts`, the pinned contexts of a confidential hold. They return plain
 * kit instructions; the flows in this folder put them into transactions.
 */
import {
  AccountRole,
  type Address,
  type Instruction,
  type ReadonlyUint8Array,
  type TransactionSigner,
} from "@solana/kit";
import {
  getVerifyProofInstruction,
  ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
  ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import type { ConfidentialKeyset } from "../confidential/keys";
import { PubkeyValidityProofData } from "../confidential/zk-sdk";
import {
  getAgentConfidentialApplyInstruction,
  getAgentConfidentialCloseContextsInstruction,
  getAgentConfidentialConfigureInstruction,
  getAgentConfidentialDepositInstruction,
  getAgentConfidentialTransferInstruction,
  getAgentConfidentialWithdrawInstruction,
  getConfidentialPendingApproveInstruction,
  getPendingCloseExpiredInstruction,
  getPendingRejectInstruction,
} from "../generated";
import { holdApprovalAccounts } from "../program/instructions";
import {
  assertTransferId,
  findOptionalHandlePda,
  findPendingTransactionPda,
  findPolicyPda,
} from "../program/pdas";
import type { Hold } from "./pending-transaction";

/** The most contexts one `agent_confidential_close_contexts` closes. */
export const MAX_CONTEXTS_PER_CLOSE = 6;

/** Every builder takes the program id (the cluster's agent-policy program). */
export interface ProgramAddressConfig {
  readonly programAddress: Address;
}

/**
 * `agent_confidential_configure` followed by the ZK program's `VerifyPubkeyValidity` for the
 * agent's ElGamal key: Token-2022's ConfigureAccount (CPI, `proof_instruction_offset = 1`) reads
 * the proof from the next top-level instruction, so the two must stay adjacent in one transaction.
 */
export function buildAgentConfidentialConfigureInstructions(
  input: {
    readonly authority: TransactionSigner;
    readonly agent: Address;
    readonly tokenAccount: Address;
    readonly mint: Address;
    readonly payer: TransactionSigner;
    readonly keys: ConfidentialKeyset;
    readonly maximumPendingCredits: bigint;
  } & ProgramAddressConfig,
): [Instruction, Instruction] {
  return [
    getAgentConfidentialConfigureInstruction(
      {
        authority: input.authority,
        agent: input.agent,
        tokenAccount: input.tokenAccount,
        mint: input.mint,
        payer: input.payer,
        decryptableZeroBalance: input.keys.ae.encrypt(0n).toBytes(),
        maximumPendingBalanceCreditCounter: input.maximumPendingCredits,
      },
      input,
    ),
    getVerifyProofInstruction({
      discriminator: ZkElGamalProofInstruction.VerifyPubkeyValidity,
      proofData: new PubkeyValidityProofData(input.keys.elgamal).toBytes(),
    }),
  ];
}

/** `agent_confidential_deposit`: public balance of the agent's account -> its pending balance. */
export function buildAgentConfidentialDepositInstruction(
  input: {
    readonly authority: TransactionSigner;
    readonly agent: Address;
    readonly tokenAccount: Address;
    readonly mint: Address;
    readonly amount: bigint;
  } & ProgramAddressConfig,
) {
  return getAgentConfidentialDepositInstruction(input, input);
}

/** `agent_confidential_apply`: pending -> available, with the new AE copy of the available balance. */
export function buildAgentConfidentialApplyInstruction(
  input: {
    readonly authority: TransactionSigner;
    readonly agent: Address;
    readonly tokenAccount: Address;
    readonly expectedPendingBalanceCreditCounter: bigint;
    readonly newDecryptableAvailableBalance: ReadonlyUint8Array;
  } & ProgramAddressConfig,
) {
  return getAgentConfidentialApplyInstruction(input, input);
}

/** `agent_confidential_withdraw`: available confidential -> public balance of the same account. */
export function buildAgentConfidentialWithdrawInstruction(
  input: {
    readonly authority: TransactionSigner;
    readonly agent: Address;
    readonly tokenAccount: Address;
    readonly mint: Address;
    readonly equalityProof: Address;
    readonly rangeProof: Address;
    readonly amount: bigint;
    readonly newDecryptableAvailableBalance: ReadonlyUint8Array;
  } & ProgramAddressConfig,
) {
  return getAgentConfidentialWithdrawInstruction(input, input);
}

/**
 * `agent_confidential_close_contexts`: closes 1..=6 contexts whose authority is the agent PDA
 * (left by a failed run), rent to `rentReceiver`. The contexts follow the fixed accounts.
 */
export function buildAgentConfidentialCloseContextsInstruction(
  input: {
    readonly authority: TransactionSigner;
    readonly agent: Address;
    readonly rentReceiver: Address;
    readonly contexts: readonly Address[];
  } & ProgramAddressConfig,
): Instruction {
  if (input.contexts.length === 0 || input.contexts.length > MAX_CONTEXTS_PER_CLOSE) {
    throw new RangeError(
      `close_contexts takes 1..=${MAX_CONTEXTS_PER_CLOSE} contexts, got ${input.contexts.length}`,
    );
  }
  const instruction = getAgentConfidentialCloseContextsInstruction(
    { authority: input.authority, agent: input.agent, rentReceiver: input.rentReceiver },
    input,
  );
  return {
    ...instruction,
    accounts: [
      ...instruction.accounts,
      ...input.contexts.map((context) => ({ address: context, role: AccountRole.WRITABLE })),
    ],
  };
}

/** The six context accounts of an agent confidential transfer (authority: the agent PDA). */
export interface AgentTransferContexts {
  readonly equalityProof: Address;
  readonly ciphertextValidityProof: Address;
  readonly rangeProof: Address;
  readonly limitEqualityTransaction: Address;
  readonly limitEqualityDaily: Address;
  readonly limitRangeProof: Address;
}

/**
 * `agent_confidential_transfer`: the pending PDA is derived from `nextHoldNonce` (only created on
 * the hold path); the program closes the contexts it consumes to `contextRentReceiver`.
 */
export async function buildAgentConfidentialTransferInstruction(
  input: {
    readonly agentSigner: TransactionSigner;
    readonly agent: Address;
    readonly nextHoldNonce: bigint;
    readonly source: Address;
    readonly mint: Address;
    readonly destination: Address;
    readonly recipientHandle?: string;
    readonly contexts: AgentTransferContexts;
    readonly contextRentReceiver: Address;
    readonly payer: TransactionSigner;
    readonly transferId: ReadonlyUint8Array;
    readonly newSourceDecryptableAvailableBalance: ReadonlyUint8Array;
    readonly spendDecryptable: ReadonlyUint8Array;
    readonly spendDecryptableNextDay: ReadonlyUint8Array;
    readonly requestHold: boolean;
  } & ProgramAddressConfig,
) {
  assertTransferId(input.transferId);
  const [policy] = await findPolicyPda({ agent: input.agent }, input);
  const [pending] = await findPendingTransactionPda(
    { agent: input.agent, nonce: input.nextHoldNonce },
    input,
  );
  const instruction = getAgentConfidentialTransferInstruction(
    {
      agentSigner: input.agentSigner,
      agent: input.agent,
      policy,
      source: input.source,
      mint: input.mint,
      destination: input.destination,
      recipientHandle: await findOptionalHandlePda(input.recipientHandle, input),
      ...input.contexts,
      contextRentReceiver: input.contextRentReceiver,
      pending,
      payer: input.payer,
      transferId: input.transferId,
      newSourceDecryptableAvailableBalance: input.newSourceDecryptableAvailableBalance,
      spendDecryptable: input.spendDecryptable,
      spendDecryptableNextDay: input.spendDecryptableNextDay,
      requestHold: input.requestHold,
    },
    input,
  );
  return { instruction, pending };
}

/** `confidential_pending_approve`: executes a confidential hold with its pinned contexts. */
export async function buildConfidentialPendingApproveInstruction(
  input: { readonly owner: TransactionSigner; readonly hold: Hold } & ProgramAddressConfig,
) {
  const { hold } = input;
  const contexts = pinnedContexts(hold);
  const accounts = await holdApprovalAccounts(
    input.owner,
    hold.address,
    hold,
    hold.recipientHandle ?? undefined,
    input,
  );
  return getConfidentialPendingApproveInstruction({ ...accounts, ...contexts }, input);
}

/** `pending_reject` of a confidential hold: its pinned contexts are closed to the rent payer. */
export function buildConfidentialPendingRejectInstruction(
  input: { readonly owner: TransactionSigner; readonly hold: Hold } & ProgramAddressConfig,
) {
  return getPendingRejectInstruction({ owner: input.owner, ...holdClosingAccounts(input.hold) }, input);
}

/** `pending_close_expired` of a confidential hold (anyone may send it once the hold expired). */
export function buildConfidentialPendingCloseExpiredInstruction(
  input: { readonly hold: Hold } & ProgramAddressConfig,
) {
  return getPendingCloseExpiredInstruction(holdClosingAccounts(input.hold), input);
}

/** The accounts that close a confidential hold, its pinned contexts with it, rent back to its payer. */
function holdClosingAccounts(hold: Hold) {
  return {
    agent: hold.agent,
    pending: hold.address,
    rentReceiver: hold.rentPayer,
    ...pinnedContexts(hold),
    zkElgamalProofProgram: ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
  };
}

function pinnedContexts(hold: Hold) {
  if (hold.contexts === null) throw new RangeError(`${hold.address} is not a confidential hold`);
  return hold.contexts;
}
