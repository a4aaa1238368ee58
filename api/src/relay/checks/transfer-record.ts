/**
 * A relayed `transfer_record` only ever rides with the transfer it records. The program lets any
 * signer record any transfer id between any token accounts of a mint, so on its own (or beside a
 * transfer of another id or destination) a record claims a payment nobody made. The agent's
 * record is relayed only in the same transaction as the agent's own `agent_transfer` with the
 * same transfer id, source, destination and mint (the memo path of api/src/transfers).
 */
import {
  AgentPolicyInstruction,
  identifyAgentPolicyInstruction,
  parseAgentTransferInstruction,
  parseTransferRecordInstruction,
} from "@cpay/sdk";
import {
  parsableOf,
  type Refusal,
  type RelayedInstruction,
  type RelayPolicyContext,
  refuse,
} from "./verdict";

interface Moved {
  readonly transferId: string;
  readonly source: string;
  readonly destination: string;
  readonly mint: string;
}

/** Refuses a transaction with a `transfer_record` that no `agent_transfer` of it matches. */
export function checkTransferRecords(
  instructions: readonly RelayedInstruction[],
  ctx: RelayPolicyContext,
): Refusal | undefined {
  const records: [RelayedInstruction, Moved][] = [];
  const transfers: Moved[] = [];
  for (const instruction of instructions) {
    if (instruction.program !== ctx.programId) continue;
    const parsable = parsableOf(instruction);
    let kind: AgentPolicyInstruction;
    try {
      kind = identifyAgentPolicyInstruction(parsable);
      if (kind === AgentPolicyInstruction.TransferRecord) {
        const { accounts, data } = parseTransferRecordInstruction(parsable);
        records.push([instruction, movedOf(data.transferId, accounts)]);
      } else if (kind === AgentPolicyInstruction.AgentTransfer) {
        const { accounts, data } = parseAgentTransferInstruction(parsable);
        transfers.push(movedOf(data.transferId, accounts));
      }
    } catch (error) {
      return refuse(
        "malformed_transaction",
        `instruction ${instruction.index} (agent-policy) does not decode: ${(error as Error).message}`,
      );
    }
  }
  for (const [instruction, record] of records) {
    const same = transfers.some(
      (transfer) =>
        transfer.transferId === record.transferId &&
        transfer.source === record.source &&
        transfer.destination === record.destination &&
        transfer.mint === record.mint,
    );
    if (!same) {
      return refuse(
        "record_without_transfer",
        `instruction ${instruction.index} (agent-policy transfer_record) records a transfer this transaction does not make; a record is relayed only beside the agent's own agent_transfer with the same transfer id, source, destination and mint`,
      );
    }
  }
  return undefined;
}

function movedOf(
  transferId: ArrayLike<number>,
  accounts: {
    readonly source: { readonly address: string };
    readonly destination: { readonly address: string };
    readonly mint: { readonly address: string };
  },
): Moved {
  return {
    transferId: Array.from(transferId).join(","),
    source: accounts.source.address,
    destination: accounts.destination.address,
    mint: accounts.mint.address,
  };
}
