/**
 * What a landed transaction of the agent-policy program did, in the program's own terms: funds
 * moved (an owner's recorded transfer or an agent's), a transfer held for its owner, a hold decided,
 * a policy changed — or, for a transaction that failed, which of the program's rules refused it.
 * Every reader of the chain (the API's submission, crash recovery and expiry checks, the indexer)
 * reads these facts here and keeps only its own decision on top: whether a fact is the one it
 * waits for (by transfer id, agent, token accounts) is the reader's, not this module's.
 *
 * A failed transaction changed nothing: its events never happened, so it has no facts.
 */
import type { Address, ReadonlyUint8Array } from "@solana/kit";
import type { AgentPolicyEvent } from "../generated";
import { type AgentPolicyErrorInfo, getAgentPolicyErrorFromTransactionError } from "./errors";
import { parseAgentPolicyEvents } from "./events";

/** Where a fact was stated: its event's IDL name and top-level instruction (0-based). */
interface Stated {
  readonly event: AgentPolicyEvent["name"];
  readonly instructionIndex: number;
}

/** Funds moved: an owner's `ServiceTransferRecorded`, or an agent's (confidential) transfer. */
export interface LandedTransferExecuted extends Stated {
  readonly kind: "transfer_executed";
  readonly transferId: ReadonlyUint8Array;
  /** `record`: any signer may emit it; `agent`: the program emitted it for the agent's PDA. */
  readonly by: "record" | "agent";
  /** The record's signer, or the agent PDA. */
  readonly sender: Address;
  readonly source: Address;
  readonly destination: Address;
  readonly mint: Address;
  readonly confidential: boolean;
  /** An approved hold executed (never true for a record). */
  readonly fromHold: boolean;
}

/** The program held an agent's transfer for its owner at `pending`. */
export interface LandedTransferHeld extends Stated {
  readonly kind: "transfer_held";
  readonly transferId: ReadonlyUint8Array;
  readonly agent: Address;
  readonly pending: Address;
  /** Unix seconds of the cluster clock. */
  readonly expiresAt: bigint;
}

/** The owner approved or rejected the hold at `pending`, or anyone closed it after expiry. */
export interface LandedHoldDecided extends Stated {
  readonly kind: "hold_decided";
  readonly decision: "approved" | "rejected" | "expired";
  readonly transferId: ReadonlyUint8Array;
  readonly agent: Address;
  readonly pending: Address;
}

export interface LandedPolicyUpdated extends Stated {
  readonly kind: "policy_updated";
  readonly agent: Address;
}

/** An event no record depends on (config, handle registration, agent creation). */
export interface LandedOther extends Stated {
  readonly kind: "other";
}

export type LandedFact =
  | LandedTransferExecuted
  | LandedTransferHeld
  | LandedHoldDecided
  | LandedPolicyUpdated
  | LandedOther;

export interface FactsOfLogs {
  readonly facts: readonly LandedFact[];
  /** The runtime cut the logs short (`Log truncated`): facts after the cut are missing. */
  readonly truncated: boolean;
}

export interface LandedFacts extends FactsOfLogs {
  /** The program's rule that refused a failed transaction; null when it succeeded or another program failed it. */
  readonly refusal: AgentPolicyErrorInfo | null;
}

export interface LandedFactsOptions {
  /** The deployed agent-policy program (its default address otherwise). */
  readonly programAddress?: Address;
  /** The program id of each top-level instruction, when known: a refusal is then only ours if its instruction is. */
  readonly instructionProgramAddresses?: readonly Address[];
}

const DECISIONS = {
  TransactionApproved: "approved",
  TransactionRejected: "rejected",
  TransactionExpired: "expired",
} as const;

/**
 * What `transaction` (its `err` as the cluster reports it, null when it succeeded, and its log
 * messages) did. Throws an `EventLogError` when our program's logs do not decode (a program/IDL
 * mismatch), as `parseAgentPolicyEvents` does.
 */
export function landedFacts(
  transaction: { readonly err: unknown; readonly logs: readonly string[] },
  options: LandedFactsOptions = {},
): LandedFacts {
  if (transaction.err === null || transaction.err === undefined) {
    return { ...factsOfLogs(transaction.logs, options), refusal: null };
  }
  return {
    facts: [],
    truncated: false,
    refusal: getAgentPolicyErrorFromTransactionError(transaction.err, options),
  };
}

/**
 * The facts the program's events in `logs` state, in emission order, without asking whether the
 * transaction succeeded: for a caller that knows it did (a signature listed without an error).
 */
export function factsOfLogs(logs: readonly string[], options: LandedFactsOptions = {}): FactsOfLogs {
  const parsed = parseAgentPolicyEvents(logs, options);
  return { facts: parsed.events.map(factOf), truncated: parsed.truncated };
}

function factOf(logged: AgentPolicyEvent & { readonly instructionIndex: number }): LandedFact {
  const stated = { event: logged.name, instructionIndex: logged.instructionIndex };
  switch (logged.name) {
    case "ServiceTransferRecorded": {
      const { transferId, sender, source, destination, mint, confidential } = logged.data;
      return {
        ...stated,
        kind: "transfer_executed",
        transferId,
        by: "record",
        sender,
        source,
        destination,
        mint,
        confidential,
        fromHold: false,
      };
    }
    case "TransferExecuted":
    case "ConfidentialTransferExecuted": {
      const { transferId, agent, source, destination, mint, fromHold } = logged.data;
      const confidential = logged.name === "ConfidentialTransferExecuted";
      return {
        ...stated,
        kind: "transfer_executed",
        transferId,
        by: "agent",
        sender: agent,
        source,
        destination,
        mint,
        confidential,
        fromHold,
      };
    }
    case "TransactionHeld": {
      const { transferId, agent, pending, expiresAt } = logged.data;
      return { ...stated, kind: "transfer_held", transferId, agent, pending, expiresAt };
    }
    case "TransactionApproved":
    case "TransactionRejected":
    case "TransactionExpired": {
      const { transferId, agent, pending } = logged.data;
      return {
        ...stated,
        kind: "hold_decided",
        decision: DECISIONS[logged.name],
        transferId,
        agent,
        pending,
      };
    }
    case "PolicyUpdated":
      return { ...stated, kind: "policy_updated", agent: logged.data.agent };
    default:
      return { ...stated, kind: "other" };
  }
}
