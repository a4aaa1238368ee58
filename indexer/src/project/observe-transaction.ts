/**
 * Reads a program transaction's facts (`@cpay/sdk` `landedFacts`, the reading the API shares) and
 * what the chain must add to them (who owns a destination token account, what a hold's account
 * says), giving the facts to apply. A failed transaction changed nothing, so it has no facts; its
 * events never happened.
 */

import { idFromBytes } from "@cpay/ledger/ids";
import { type LandedFact, landedFacts } from "@cpay/sdk";
import { decodeHold } from "@cpay/sdk/agent-confidential";
import { address, type ReadonlyUint8Array } from "@solana/kit";
import type { ChainTransaction, IndexerChain } from "../chain/indexer-chain";
import type { EventPosition, ObservedFact } from "./observed-fact";

export interface ObservedTransaction {
  readonly facts: readonly ObservedFact[];
  /** The runtime cut the logs short: events after the cut are missing (logged by the caller). */
  readonly truncated: boolean;
}

export async function observeTransaction(
  chain: IndexerChain,
  transaction: ChainTransaction,
): Promise<ObservedTransaction> {
  const landed = landedFacts(transaction, { programAddress: address(chain.programId) });
  const perInstruction = new Map<number, number>();
  const facts: ObservedFact[] = [];
  for (const fact of landed.facts) {
    const eventIndex = perInstruction.get(fact.instructionIndex) ?? 0;
    perInstruction.set(fact.instructionIndex, eventIndex + 1);
    const position: EventPosition = {
      signature: transaction.signature,
      slot: transaction.slot,
      blockTime: transaction.blockTime,
      instructionIndex: fact.instructionIndex,
      eventIndex,
      event: fact.event,
    };
    facts.push(await observed(chain, position, fact));
  }
  return { facts, truncated: landed.truncated };
}

/** `fact` with what the chain adds to it: who owns a destination, what a hold's account says. */
async function observed(
  chain: IndexerChain,
  position: EventPosition,
  fact: LandedFact,
): Promise<ObservedFact> {
  switch (fact.kind) {
    case "transfer_executed": {
      // Whether it moved a row's funds is decided against the row (apply-transfer-executed.ts).
      const { by, sender, source, destination, mint, confidential, fromHold } = fact;
      return {
        kind: "transfer_executed",
        position,
        transferId: transferIdOf(fact),
        by,
        sender,
        source,
        destination,
        recipient: await chain.tokenAccountOwner(destination),
        mint,
        confidential,
        fromHold,
      };
    }
    case "transfer_held": {
      const accountData = await chain.programAccountData(fact.pending);
      const hold = accountData === null ? null : decodeHold(fact.pending, accountData);
      return {
        kind: "transfer_held",
        position,
        transferId: transferIdOf(fact),
        agent: fact.agent,
        pending: fact.pending,
        expiresAt: fact.expiresAt,
        hold,
        recipient: hold === null ? null : await chain.tokenAccountOwner(hold.destination),
      };
    }
    case "hold_decided": {
      const { decision, agent, pending } = fact;
      return { kind: "hold_decided", position, decision, agent, pending, transferId: transferIdOf(fact) };
    }
    case "policy_updated":
      return { kind: "policy_updated", position, agent: fact.agent };
    default:
      return { kind: "other", position };
  }
}

/** The `tr_...` id of a fact's 16-byte transfer id. */
function transferIdOf(fact: { readonly transferId: ReadonlyUint8Array }): string {
  return idFromBytes("tr", Uint8Array.from(fact.transferId));
}
