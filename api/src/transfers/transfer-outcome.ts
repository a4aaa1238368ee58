/**
 * What one landed transaction did for one agent transfer, read from the program's events by the
 * transfer id AND the transfer's binding: executed (`TransferExecuted` /
 * `ConfidentialTransferExecuted` not from a hold, by the transfer's agent PDA, to its destination in
 * its mint), held (`TransactionHeld` by its agent PDA, with the hold's account, whose destination
 * the caller checks), or nothing. An event of another agent, or to another destination, under the
 * same id is not this transfer's (transfer-binding.ts says why). An execution wins over a hold in
 * the same logs: funds moved. Serves the API's own agent transfers, crash recovery and the relay.
 */

import { idFromBytes } from "@cpay/ledger/ids";
import { parseAgentPolicyEvents } from "@cpay/sdk";
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
  for (const event of parseAgentPolicyEvents(logs, { programAddress }).events) {
    if (
      !("transferId" in event.data) ||
      !("agent" in event.data) ||
      event.data.agent !== binding.agent ||
      idFromBytes("tr", Uint8Array.from(event.data.transferId)) !== transferId
    ) {
      continue;
    }
    if (
      (event.name === "TransferExecuted" || event.name === "ConfidentialTransferExecuted") &&
      !event.data.fromHold &&
      (await binding.moves({
        source: event.data.source,
        destination: event.data.destination,
        mint: event.data.mint,
        confidential: event.name === "ConfidentialTransferExecuted",
      }))
    ) {
      return { outcome: "executed" };
    }
    if (event.name === "TransactionHeld") held = { outcome: "held", pending: event.data.pending };
  }
  return held;
}
