/**
 * Decodes a program transaction's events and reads what the chain must add to them (who owns a
 * destination token account, what a hold's account says), giving the facts to apply. A failed
 * transaction changed nothing, so it has no facts; its events never happened.
 */

import { idFromBytes } from "@cpay/ledger/ids";
import { parseAgentPolicyEvents } from "@cpay/sdk";
import { decodeHold } from "@cpay/sdk/agent-confidential";
import { address, type ReadonlyUint8Array } from "@solana/kit";
import type { ChainTransaction, IndexerChain } from "../chain/indexer-chain";
import type { EventPosition, ObservedFact, TransferExecutedFact } from "./observed-fact";

export interface ObservedTransaction {
  readonly facts: readonly ObservedFact[];
  /** The runtime cut the logs short: events after the cut are missing (logged by the caller). */
  readonly truncated: boolean;
}

export async function observeTransaction(
  chain: IndexerChain,
  transaction: ChainTransaction,
): Promise<ObservedTransaction> {
  if (transaction.err !== null) return { facts: [], truncated: false };
  const parsed = parseAgentPolicyEvents(transaction.logs, { programAddress: address(chain.programId) });
  const perInstruction = new Map<number, number>();
  const facts: ObservedFact[] = [];
  for (const event of parsed.events) {
    const eventIndex = perInstruction.get(event.instructionIndex) ?? 0;
    perInstruction.set(event.instructionIndex, eventIndex + 1);
    const position: EventPosition = {
      signature: transaction.signature,
      slot: transaction.slot,
      blockTime: transaction.blockTime,
      instructionIndex: event.instructionIndex,
      eventIndex,
      event: event.name,
    };
    switch (event.name) {
      case "ServiceTransferRecorded": {
        const { data } = event;
        facts.push(await transferExecuted(chain, position, { ...data, by: "record", fromHold: false }));
        break;
      }
      case "TransferExecuted":
      case "ConfidentialTransferExecuted": {
        const { data } = event;
        const confidential = event.name === "ConfidentialTransferExecuted";
        facts.push(
          await transferExecuted(chain, position, { ...data, by: "agent", sender: data.agent, confidential }),
        );
        break;
      }
      case "TransactionHeld": {
        const { data } = event;
        const accountData = await chain.programAccountData(data.pending);
        const hold = accountData === null ? null : decodeHold(data.pending, accountData);
        facts.push({
          kind: "transfer_held",
          position,
          transferId: idFromBytes("tr", Uint8Array.from(data.transferId)),
          agent: data.agent,
          pending: data.pending,
          expiresAt: data.expiresAt,
          hold,
          recipient: hold === null ? null : await chain.tokenAccountOwner(hold.destination),
        });
        break;
      }
      case "TransactionApproved":
      case "TransactionRejected":
      case "TransactionExpired": {
        const { data } = event;
        facts.push({
          kind: "hold_decided",
          position,
          decision: DECISIONS[event.name],
          agent: data.agent,
          pending: data.pending,
          transferId: idFromBytes("tr", Uint8Array.from(data.transferId)),
        });
        break;
      }
      case "PolicyUpdated":
        facts.push({ kind: "policy_updated", position, agent: event.data.agent });
        break;
      default:
        facts.push({ kind: "other", position });
    }
  }
  return { facts, truncated: parsed.truncated };
}

/**
 * An owner's record or an agent's transfer: the fact, with who owns the destination. Whether it
 * moved a row's funds is decided against the row (apply-transfer-executed.ts), not here.
 */
async function transferExecuted(
  chain: IndexerChain,
  position: EventPosition,
  moved: {
    readonly transferId: ReadonlyUint8Array;
    readonly by: "record" | "agent";
    readonly sender: string;
    readonly source: string;
    readonly destination: string;
    readonly mint: string;
    readonly confidential: boolean;
    readonly fromHold: boolean;
  },
): Promise<TransferExecutedFact> {
  return {
    kind: "transfer_executed",
    position,
    transferId: idFromBytes("tr", Uint8Array.from(moved.transferId)),
    by: moved.by,
    sender: moved.sender,
    source: moved.source,
    destination: moved.destination,
    recipient: await chain.tokenAccountOwner(moved.destination),
    mint: moved.mint,
    confidential: moved.confidential,
    fromHold: moved.fromHold,
  };
}

const DECISIONS = {
  TransactionApproved: "approved",
  TransactionRejected: "rejected",
  TransactionExpired: "expired",
} as const;
