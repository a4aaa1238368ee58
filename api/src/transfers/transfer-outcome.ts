/**
 * What one landed transaction did for one agent transfer, read from the program's facts
 * (`@cpay/sdk` `factsOfLogs`) by the transfer id AND the transfer's binding: executed (`TransferExecuted` /
 * `ConfidentialTransferExecuted` not from a hold, by the transfer's agent PDA, to its destination in
 * its mint), held (`TransactionHeld` by its agent PDA, with the hold's account, whose destination
 * the caller checks), or nothing. An event of another agent, or to another destination, under the
 * same id is not this transfer's (transfer-binding.ts says why). An execution wins over a hold in
 * the same logs: funds moved. Serves the API's own agent transfers, crash recovery and the relay.
 */

import { idFromBytes } from "@cpay/ledger/ids";
import { factsOfLogs, type LandedTransferExecuted, type LandedTransferHeld } from "@cpay/sdk";
import type { Address } from "@solana/kit";

export type TransferOutcome =
  | { readonly outcome: "executed" }
  | { readonly outcome: "held"; readonly pending: Address };

/** What an agent's executed transfer moved, as its event says. */
export interface AgentMove {
  readonly source: string;
  readonly destination: string;
  readonly mint: string;
  readonly confidential: boolean;
}

/** Which events are the transfer's: its agent PDA's, moving what `moves` accepts. */
export interface OutcomeBinding {
  readonly agent: string;
  readonly moves: (moved: AgentMove) => boolean | Promise<boolean>;
}

/** The outcome for transfer `transferId` in `logs` (of a transaction of `programAddress`), or null. */
export async function transferOutcomeIn(
  logs: readonly string[],
  programAddress: Address,
  transferId: string,
  binding: OutcomeBinding,
): Promise<TransferOutcome | null> {
  let held: TransferOutcome | null = null;
  for (const fact of factsOfLogs(logs, { programAddress }).facts) {
    if (fact.kind !== "transfer_executed" && fact.kind !== "transfer_held") continue;
    if (
      agentOf(fact) !== binding.agent ||
      idFromBytes("tr", Uint8Array.from(fact.transferId)) !== transferId
    ) {
      continue;
    }
    if (fact.kind === "transfer_held") {
      held = { outcome: "held", pending: fact.pending };
      continue;
    }
    const { source, destination, mint, confidential } = fact;
    if (!fact.fromHold && (await binding.moves({ source, destination, mint, confidential }))) {
      return { outcome: "executed" };
    }
  }
  return held;
}

/** The agent PDA whose transfer `fact` is; null for an owner's record. */
function agentOf(fact: LandedTransferExecuted | LandedTransferHeld): string | null {
  if (fact.kind === "transfer_held") return fact.agent;
  return fact.by === "agent" ? fact.sender : null;
}
