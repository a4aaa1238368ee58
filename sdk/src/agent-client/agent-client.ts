/**
 * The client of a SELF-CUSTODY agent: it holds its own agent signer key (and, for confidential
 * spends, its token account's `ConfidentialKeyset`), builds, proves and signs its transfers through
 * its PDA, and hands the partially signed transactions to the service's relay, whose fee payer
 * co-signs and pays. The agent holds no SOL; the service never sees its keys or a confidential
 * amount. Reads (policy, holds, the day's spend) come from `chain`; nothing is submitted to it.
 *
 * - public: one transaction (relayed-public-transfer.ts), with a memo's encrypted record;
 * - confidential: `transferAgentConfidential` with the relay as its submitter (7 transactions, each
 *   its own `relay.submit`; agent-confidential/agent-confidential-transfer.ts).
 * With `keys`, and a relay that names the owner's ElGamal key, each transfer also states its amount
 * to the owner, sealed for the hold it may become (sealed-hold.ts): the owner's approval inbox shows it.
 */
import { type Address, address, type TransactionSigner } from "@solana/kit";
import {
  type AgentTransferRelay,
  transferAgentConfidential,
} from "../agent-confidential/agent-confidential-transfer";
import { listAgentPendingTransactions } from "../agent-confidential/list-pending-transactions";
import type { Hold } from "../agent-confidential/pending-transaction";
import type { SpendDecision } from "../agent-confidential/spend-decision";
import type { ChainPort } from "../chain/chain-port";
import type { ConfidentialKeyset } from "../confidential/keys";
import type { Policy } from "../generated";
import { findPolicyPda } from "../program/pdas";
import { type AgentBalance, readAgentBalance } from "./agent-balance";
import { MEMO_REFUSALS, MemoRefusedError } from "./memo-refusals";
import { policyAccountOf, previewAgentTransfer } from "./preview-transfer";
import type { RelaySubmission, RelayTransport } from "./relay-transport";
import { buildRelayedPublicTransfer } from "./relayed-public-transfer";
import { type RemainingToday, readRemainingToday } from "./remaining-today";
import { sealNextHoldAmount } from "./sealed-hold";

const TRANSFER_ID_BYTES = 16;

export interface AgentClientConfig {
  /** Reads only: the agent's accounts, the policy, the clock. */
  readonly chain: ChainPort;
  readonly relay: RelayTransport;
  readonly agentSigner: TransactionSigner;
  /** The agent's PDA (its `public_key`). */
  readonly agent: Address;
  /** The agent token account's confidential keys: needed for confidential transfers, and to read a confidential spend. */
  readonly keys?: ConfidentialKeyset;
  /** Default: the cluster's agent-policy program. */
  readonly programAddress?: Address;
  readonly mint: Address;
}

export interface AgentTransferRequest {
  /** The recipient's wallet. */
  readonly recipient: Address;
  /** An account handle of the recipient, proved to the program for name/suffix recipient patterns. */
  readonly recipientHandle?: string;
  /** Base units. */
  readonly amount: bigint;
  readonly confidential: boolean;
  /** 16 bytes carried by the program's events; default random. */
  readonly transferId?: Uint8Array;
  /**
   * A note for the recipient, encrypted to its ElGamal key (agent-transfer-record.ts); needs `keys`.
   * Public transfers only: on a confidential one, and to a recipient without a confidential
   * account, it is refused before anything is signed (`MemoRefusedError`, as `/v1` refuses it).
   */
  readonly memo?: string;
}

export interface AgentClient {
  /**
   * Transfers (or, above the HITL threshold, holds for the owner) and resolves with the relay's
   * answer for the final transaction. Rejects with the relay's error (a program refusal included)
   * or, confidential, a `ConfidentialError` (`policy_limit_exceeded` before anything is sent;
   * `step_failed` naming the step, with the relay's error as `cause`).
   */
  transfer(request: AgentTransferRequest): Promise<RelaySubmission>;
  /**
   * What the program would decide for `request` now (executes, held, or refused by which rule),
   * from the policy, the agent and the clock on-chain; nothing is signed or sent (preview-transfer.ts).
   */
  preview(request: Omit<AgentTransferRequest, "transferId">): Promise<SpendDecision>;
  /** The on-chain Policy account, decoded. */
  policy(): Promise<Policy>;
  /** What is left of today's limits (remaining-today.ts says exactly what). */
  remainingToday(): Promise<RemainingToday>;
  /** The agent's open holds, public and confidential (confidential ones without an amount). */
  heldTransactions(): Promise<Hold[]>;
  /** The agent's balance of `mint`, decrypted with `keys` (agent-balance.ts); needs `keys`. */
  balance(): Promise<AgentBalance>;
}

/** A client for the agent `config.agent` signing with `config.agentSigner` (see the file doc). */
export function createAgentClient(config: AgentClientConfig): AgentClient {
  const { chain, relay, agent } = config;
  const programAddress = config.programAddress ?? address(chain.programId);
  const policyAddress = async () => (await findPolicyPda({ agent }, { programAddress }))[0];
  const keysFor = (what: string): ConfidentialKeyset => {
    if (config.keys === undefined) throw new Error(`${what} needs the agent's confidential keys`);
    return config.keys;
  };
  /** The amount sealed to the owner for a possible hold, when the keys and the owner's key are known. */
  const sealedFor = async (amount: bigint, ownerPubkey: Uint8Array | null | undefined) =>
    config.keys === undefined || ownerPubkey == null
      ? {}
      : {
          sealedAmount: await sealNextHoldAmount(chain, {
            agent,
            programAddress,
            keys: config.keys,
            ownerPubkey,
            amount,
          }),
        };

  const transferPublic = async (request: AgentTransferRequest, transferId: Uint8Array) => {
    const info = await relay.info();
    const memo =
      request.memo === undefined ? undefined : { text: request.memo, agentKeys: keysFor("a memo") };
    const wire = await buildRelayedPublicTransfer(chain, {
      agentSigner: config.agentSigner,
      agent,
      mint: config.mint,
      recipient: request.recipient,
      ...(request.recipientHandle === undefined ? {} : { recipientHandle: request.recipientHandle }),
      amount: request.amount,
      transferId,
      ...(memo === undefined ? {} : { memo }),
      programAddress,
      ...info,
    });
    return relay.submit([wire], await sealedFor(request.amount, info.ownerElgamalPubkey));
  };

  const transferConfidential = async (request: AgentTransferRequest, transferId: Uint8Array) => {
    if (request.memo !== undefined) throw new MemoRefusedError(MEMO_REFUSALS.agentConfidentialTransfer);
    const keys = keysFor("a confidential transfer");
    const answers: RelaySubmission[] = [];
    const { feePayer, ownerElgamalPubkey } = await relay.info();
    const sealed = await sealedFor(request.amount, ownerElgamalPubkey);
    const submitter: AgentTransferRelay = {
      feePayer,
      submit: async (wires) => {
        const answer = await relay.submit(wires, sealed);
        answers.push(answer);
        return answer.signatures;
      },
      latestBlockhash: async () => {
        const { blockhash, lastValidBlockHeight } = await relay.info();
        return { blockhash, lastValidBlockHeight };
      },
    };
    const { signatures } = await transferAgentConfidential(chain, {
      agentSigner: config.agentSigner,
      agent,
      keys,
      mint: config.mint,
      recipient: request.recipient,
      ...(request.recipientHandle === undefined ? {} : { recipientHandle: request.recipientHandle }),
      amount: request.amount,
      transferId,
      relay: submitter,
    });
    const final = signatures[signatures.length - 1] as string;
    // The final transaction's own answer; none when its submission errored but it landed after all.
    return (
      answers.find((answer) => answer.signatures.includes(final)) ?? { signatures: [final], transfer: null }
    );
  };

  return {
    transfer(request) {
      const transferId = request.transferId ?? crypto.getRandomValues(new Uint8Array(TRANSFER_ID_BYTES));
      return request.confidential
        ? transferConfidential(request, transferId)
        : transferPublic(request, transferId);
    },
    preview(request) {
      return previewAgentTransfer(chain, {
        agent,
        programAddress,
        mint: config.mint,
        ...(config.keys === undefined ? {} : { keys: config.keys }),
        recipient: request.recipient,
        ...(request.recipientHandle === undefined ? {} : { recipientHandle: request.recipientHandle }),
        amount: request.amount,
        confidential: request.confidential,
      });
    },
    async policy() {
      const at = await policyAddress();
      return policyAccountOf(programAddress, at, await chain.getAccount(at));
    },
    async remainingToday() {
      return readRemainingToday(chain, {
        policy: await policyAddress(),
        ...(config.keys === undefined ? {} : { keys: config.keys }),
      });
    },
    heldTransactions: () => listAgentPendingTransactions(chain, agent),
    balance() {
      return readAgentBalance(chain, { agent, mint: config.mint, keys: keysFor("reading the balance") });
    },
  };
}
