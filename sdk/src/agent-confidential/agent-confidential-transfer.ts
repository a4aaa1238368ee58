/**
 * An agent's confidential transfer under its policy: proofs built locally by whoever holds the
 * agent account's keys (agent-transfer-proofs.ts), verified into six context accounts whose
 * authority is the agent PDA, then consumed by `agent_confidential_transfer`, which checks the
 * limits over the amount it never sees, CPIs Token-2022's confidential Transfer (or holds it for
 * the owner) and closes the contexts itself.
 *
 * Transactions (proof-contexts.ts; 6 in all, measured in tests/agent-confidential):
 * 1. phase 1, concurrently: [equality ctx + both range accounts' CreateAccount] ∥ [validity ctx] ∥
 *    [limit equality tx ctx + limit equality day ctx];
 * 2. phase 2, concurrently: [Token-2022 range verify (U128)] ∥ [limit range verify (U64 or U128)];
 * 3. final: agent_confidential_transfer (closes the contexts; on the hold path it closes the three
 *    limit contexts and pins the three Token-2022 ones in the hold).
 *
 * Failure: nothing moves before the final transaction, which is atomic. Leftover contexts are
 * closed with `agent_confidential_close_contexts` signed by the agent signer (rent to the payer);
 * unverified ones are verified with the payer as authority and closed by it. The error is
 * `step_failed` naming the step, with each context's fate; a retry builds everything afresh.
 * Refused spends send nothing: `policy_limit_exceeded`, `insufficient_confidential_balance`,
 * `confidential_hold_open`, `recipient_not_confidential_ready`, `account_key_mismatch`.
 *
 * Relayed (`relay`): a self-custody agent that holds no SOL names the relay's fee payer as payer and
 * leaves its signature slot empty; the relay co-signs and submits each transaction
 * (confidential/relayed-proof-contexts.ts). The fee payer pays fees and rent and receives rent, and
 * authorizes nothing: the staging buffer is the agent signer's (its U128 Write then takes two
 * transactions: 7 in all), leftover contexts are closed by the agent signer, and an allocated but
 * unverified one is reported `orphaned` instead of being verified under the payer's authority.
 *
 * Serialised per source account (account-queue.ts), like the wallet path: proofs are made against
 * the balance and the day's spend read inside the queue. The day is the cluster's (Clock sysvar);
 * a transfer racing midnight is refused on-chain (`LimitProofMismatch`) and a retry proves against
 * the new day.
 */
import { type Address, address, createNoopSigner, isAddress, type TransactionSigner } from "@solana/kit";
import {
  BATCHED_GROUPED_CIPHERTEXT_3_HANDLES_VALIDITY_CONTEXT_ACCOUNT_SIZE,
  BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE,
  CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
  ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import type { ChainPort } from "../chain/chain-port";
import { runExclusive } from "../confidential/account-queue";
import { readinessOf, sameBytes } from "../confidential/account-setup";
import { assertAmount } from "../confidential/amounts";
import { availableBalance } from "../confidential/balance";
import { ConfidentialError, type ConfidentialStep } from "../confidential/errors";
import type { ConfidentialKeyset } from "../confidential/keys";
import { type ContextProof, runWithProofContexts } from "../confidential/proof-contexts";
import { confidentialMintOf, findTokenAccount, tokenAccountOf } from "../confidential/token-account";
import { assertTransferId, findPendingTransactionPda, findPolicyPda } from "../program/pdas";
import {
  agentAccountOf,
  assertNoOpenHold,
  findAgentTokenAccount,
  resolveAgentAddress,
  resolveRecipientWallet,
} from "./agent-account";
import {
  type AgentTransferProofs,
  buildAgentTransferProofsConcurrently,
  type ForgedTransfer,
} from "./agent-transfer-proofs";
import { agentContextAuthority } from "./close-agent-contexts";
import { SYSVAR_CLOCK_ADDRESS, unixTimeOf, utcDayIndex } from "./cluster-clock";
import { type AgentTransferContexts, buildAgentConfidentialTransferInstruction } from "./instructions";
import { policySpendStateOf } from "./policy-account";
import { proverStateOf } from "./prover-state";

export interface AgentConfidentialTransferInput {
  /** The agent's signer (the only key that may initiate its spends). */
  readonly agentSigner: TransactionSigner;
  /** The agent's address or handle (`owner/name`). */
  readonly agent: string;
  /** The agent token account's confidential keys. */
  readonly keys: ConfidentialKeyset;
  readonly mint: string;
  /** A wallet address, or an account handle (resolved to its wallet and proved as the recipient handle). */
  readonly recipient: string;
  /** The recipient handle to prove (for name patterns of the policy); defaults to `recipient` when it is a handle. */
  readonly recipientHandle?: string;
  readonly amount: bigint;
  /** 16 bytes, carried by the events. */
  readonly transferId: Uint8Array;
  /**
   * Pays fees, the contexts' rent (returned when they close) and a hold's rent. Exactly one of
   * `payer` and `relay`.
   */
  readonly payer?: TransactionSigner;
  /** Submit through a relay whose fee payer pays (see the file doc) instead of signing with `payer`. */
  readonly relay?: AgentTransferRelay;
  /** Hold for the owner's approval even when the amount is within the HITL threshold. */
  readonly requestHold?: boolean;
  /**
   * TEST ONLY (attack suites): prove the limits against these values instead of the policy's, and
   * send `request_hold` as given whatever the amount. The program must refuse such a transfer
   * (`LimitProofMismatch`); never set it to spend.
   */
  readonly unsafeForgedLimits?: ForgedTransfer;
  /**
   * TEST ONLY (attack suites): replace context accounts in the final instruction (another program's
   * look-alike, a context of another type, a replayed one). The program must refuse; the contexts
   * this run created are closed as after any failure.
   */
  readonly unsafeSubstituteContexts?: (
    contexts: AgentTransferContexts,
  ) => AgentTransferContexts | Promise<AgentTransferContexts>;
  /** TEST ONLY: runs once every proof is verified, just before the final transaction is sent. */
  readonly unsafeBeforeFinalSubmission?: () => void | Promise<void>;
}

/** A relay that co-signs as fee payer and submits (e.g. the service's, through its HTTP API). */
export interface AgentTransferRelay {
  /** The fee payer every transaction names; it signs its fee and nothing else. */
  readonly feePayer: Address;
  /**
   * Submits partially signed transactions (fee payer's slot empty) in order, each landed before
   * the next; resolves with their signatures; rejects when one is refused or fails.
   */
  readonly submit: (wires: readonly Uint8Array[]) => Promise<readonly string[]>;
  /** A recent blockhash (default: the cluster's latest). */
  readonly latestBlockhash?: () => Promise<{
    readonly blockhash: string;
    readonly lastValidBlockHeight: bigint;
  }>;
}

export interface AgentConfidentialTransferResult {
  /** Every transaction signature, in submission order; the last one moved the funds or held them. */
  readonly signatures: readonly string[];
  readonly outcome: "executed" | "held";
  /** The hold, when held. */
  readonly pending?: Address;
  readonly sourceTokenAccount: Address;
  readonly destinationTokenAccount: Address;
}

/** The steps of an agent confidential transfer, in plan order (the final one is `transfer`). */
export const AGENT_TRANSFER_STEPS: readonly ConfidentialStep[] = [
  "equality_proof",
  "ciphertext_validity_proof",
  "range_proof",
  "limit_equality_transaction_proof",
  "limit_equality_daily_proof",
  "limit_range_proof",
  "transfer",
];

/** Transfers `amount` confidentially from the agent's account, or holds it (see the file doc). */
export async function transferAgentConfidential(
  chain: ChainPort,
  input: AgentConfidentialTransferInput,
): Promise<AgentConfidentialTransferResult> {
  assertAmount(input.amount);
  assertTransferId(input.transferId);
  const payer = payerOf(input);
  const programAddress = address(chain.programId);
  const [agent, recipientWallet] = await Promise.all([
    resolveAgentAddress(chain, input.agent),
    resolveRecipientWallet(chain, input.recipient),
  ]);
  const recipientIsHandle = !isAddress(input.recipient);
  const recipientHandle = input.recipientHandle ?? (recipientIsHandle ? input.recipient : undefined);
  const [source, destination] = await Promise.all([
    findAgentTokenAccount(agent, input.mint),
    findTokenAccount(recipientWallet, input.mint),
  ]);

  const [policy] = await findPolicyPda({ agent }, { programAddress });

  return runExclusive(chain, source, async () => {
    // Everything the proofs depend on in one read (one slot's state); checked in the order the
    // failures are reported.
    const [agentRecord, sourceRecord, destinationRecord, mintRecord, policyRecord, clock] =
      await chain.getMultipleAccounts([agent, source, destination, input.mint, policy, SYSVAR_CLOCK_ADDRESS]);
    const agentAccount = agentAccountOf(chain.programId, agent, agentRecord ?? null);
    assertNoOpenHold(agentAccount);
    const sender = tokenAccountOf(source, sourceRecord ?? null)?.confidential ?? null;
    if (sender === null)
      throw new ConfidentialError("account_not_confidential_ready", `${source} is not configured`);
    if (!sameBytes(sender.elgamalPubkey, input.keys.elgamalPubkey)) {
      throw new ConfidentialError("account_key_mismatch", `${source} is configured with another ElGamal key`);
    }
    const recipientAccount = tokenAccountOf(destination, destinationRecord ?? null);
    const readiness = readinessOf(recipientAccount);
    const recipient = recipientAccount?.confidential ?? null;
    if (readiness !== "ready" || recipient === null) {
      throw new ConfidentialError("recipient_not_confidential_ready", `recipient account is ${readiness}`);
    }
    const [pending] = await findPendingTransactionPda(
      { agent, nonce: agentAccount.nextHoldNonce },
      { programAddress },
    );
    const proofs = await buildAgentTransferProofsConcurrently({
      keys: input.keys,
      availableCiphertext: sender.availableBalance,
      availableBalance: availableBalance(sender, input.keys),
      amount: input.amount,
      recipientPubkey: recipient.elgamalPubkey,
      auditorPubkey:
        confidentialMintOf(input.mint, mintRecord ?? null).auditorElgamalPubkey ?? new Uint8Array(32),
      prover: proverStateOf(
        policySpendStateOf(chain.programId, policy, policyRecord ?? null),
        input.keys,
        utcDayIndex(unixTimeOf(clock ?? null)),
      ),
      requestHold: input.requestHold,
      unsafeForgedLimits: input.unsafeForgedLimits,
    });

    const { signatures } = await runWithProofContexts({
      chain,
      payer,
      authority: agentContextAuthority(chain, {
        agent,
        authority: input.agentSigner,
        rentReceiver: payer,
      }),
      ...(input.relay === undefined
        ? {}
        : {
            submitter: {
              submit: input.relay.submit,
              signer: input.agentSigner,
              ...(input.relay.latestBlockhash === undefined
                ? {}
                : { latestBlockhash: input.relay.latestBlockhash }),
            },
          }),
      proofs: contextProofs(proofs.transfer, proofs.limits),
      finalStep: "transfer",
      ...(input.unsafeBeforeFinalSubmission === undefined
        ? {}
        : { beforeFinal: input.unsafeBeforeFinalSubmission }),
      finalInstructions: async (contexts) => {
        const created: AgentTransferContexts = {
          equalityProof: contextOf(contexts, "equality_proof"),
          ciphertextValidityProof: contextOf(contexts, "ciphertext_validity_proof"),
          rangeProof: contextOf(contexts, "range_proof"),
          limitEqualityTransaction: contextOf(contexts, "limit_equality_transaction_proof"),
          limitEqualityDaily: contextOf(contexts, "limit_equality_daily_proof"),
          limitRangeProof: contextOf(contexts, "limit_range_proof"),
        };
        const built = await buildAgentConfidentialTransferInstruction({
          agentSigner: input.agentSigner,
          agent,
          nextHoldNonce: agentAccount.nextHoldNonce,
          source,
          mint: address(input.mint),
          destination,
          recipientHandle,
          contexts: (await input.unsafeSubstituteContexts?.(created)) ?? created,
          contextRentReceiver: payer.address,
          payer,
          transferId: input.transferId,
          newSourceDecryptableAvailableBalance: proofs.transfer.newDecryptableAvailableBalance,
          spendDecryptable: proofs.spendDecryptable,
          spendDecryptableNextDay: proofs.spendDecryptableNextDay,
          requestHold: proofs.hold,
          programAddress,
        });
        return [built.instruction];
      },
    });
    return {
      signatures,
      outcome: proofs.hold ? "held" : "executed",
      ...(proofs.hold ? { pending } : {}),
      sourceTokenAccount: source,
      destinationTokenAccount: destination,
    };
  });
}

/** The payer, or the relay's fee payer as a signer that leaves its slot empty. */
function payerOf(input: AgentConfidentialTransferInput): TransactionSigner {
  if ((input.payer === undefined) === (input.relay === undefined)) {
    throw new Error("give exactly one of `payer` and `relay`");
  }
  return input.payer ?? createNoopSigner((input.relay as AgentTransferRelay).feePayer);
}

/** The six proofs in plan order; the two limit equality proofs share one transaction. */
function contextProofs(
  transfer: AgentTransferProofs["transfer"],
  limits: AgentTransferProofs["limits"],
): ContextProof[] {
  const equality = (step: ConfidentialStep, data: Uint8Array, batch?: string): ContextProof => ({
    step,
    instruction: ZkElGamalProofInstruction.VerifyCiphertextCommitmentEquality,
    accountSize: CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
    data,
    ...(batch === undefined ? {} : { batch }),
  });
  return [
    equality("equality_proof", transfer.equalityProof),
    {
      step: "ciphertext_validity_proof",
      instruction: ZkElGamalProofInstruction.VerifyBatchedGroupedCiphertext3HandlesValidity,
      accountSize: BATCHED_GROUPED_CIPHERTEXT_3_HANDLES_VALIDITY_CONTEXT_ACCOUNT_SIZE,
      data: transfer.ciphertextValidityProof,
    },
    {
      step: "range_proof",
      instruction: ZkElGamalProofInstruction.VerifyBatchedRangeProofU128,
      accountSize: BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE,
      data: transfer.rangeProof,
    },
    equality("limit_equality_transaction_proof", limits.transactionEqualityProof, "limit_equality"),
    equality("limit_equality_daily_proof", limits.dailyEqualityProof, "limit_equality"),
    {
      step: "limit_range_proof",
      instruction:
        limits.rangeProofKind === "u64"
          ? ZkElGamalProofInstruction.VerifyBatchedRangeProofU64
          : ZkElGamalProofInstruction.VerifyBatchedRangeProofU128,
      accountSize: BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE,
      data: limits.rangeProof,
    },
  ];
}

function contextOf(contexts: ReadonlyMap<ConfidentialStep, Address>, step: ConfidentialStep): Address {
  const context = contexts.get(step);
  if (context === undefined) throw new Error(`no ${step} context`);
  return context;
}
