/**
 * What one landed transaction did for one agent transfer, read from the program's events by the
 * transfer id: executed (`TransferExecuted` / `ConfidentialTransferExecuted` not from a hold), held
 * (`TransactionHeld`, with the hold's account), or nothing. An execution wins over a hold in the
 * same logs: funds moved. Serves the API's own agent transfers, crash recovery and the relay.
 */
import { parseAgentPolicyEvents } from "@cpay/sdk";
import type { Address } from "@solana/kit";
import { idFromBytes } from "../ids";

export type TransferOutcome =
  | { readonly outcome: "executed" }
  | { readonly outcome: "held"; readonly pending: Address };

/** The outcome for transfer `transferId` in `logs` (of a transaction of `programAddress`), or null. */
export function transferOutcomeIn(
  logs: readonly string[],
  programAddress: Address,
  transferId: string,
): TransferOutcome | null {
  let held: TransferOutcome | null = null;
  for (const event of parseAgentPolicyEvents(logs, { programAddress }).events) {
    if (
      !("transferId" in event.data) ||
      idFromBytes("tr", Uint8Array.from(event.data.transferId)) !== transferId
    ) {
      continue;
    }
    if (
      (event.name === "TransferExecuted" || event.name === "ConfidentialTransferExecuted") &&
      !event.data.fromHold
    ) {
      return { outcome: "executed" };
    }
    if (event.name === "TransactionHeld") held = { outcome: "held", pending: event.data.pending };
  }
  return held;
}
