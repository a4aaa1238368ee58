/**
 * Sends instructions straight to an embedded cluster (`cluster.sendTransaction(wire)`, no RPC) and
 * returns what the program did: error code and IDL name, logs, compute units, decoded events, fee.
 * Each send first produces one slot (a fresh blockhash, so an identical retry is a new
 * transaction) and puts the clock back where it was: time only moves when a test moves it.
 */

import type { EmbeddedCluster, TransactionErrorJson } from "@cpay/localnet/cluster";
import { SubmissionRejected, signTransactionToWire } from "@cpay/localnet/cluster";
import {
  getAgentPolicyErrorFromTransactionError,
  type LoggedAgentPolicyEvent,
  parseAgentPolicyEvents,
} from "@cpay/sdk";
import type { Instruction, KeyPairSigner } from "@solana/kit";

/** What one transaction did. */
export interface Outcome {
  readonly signature: string | null;
  /** Why the cluster refused to land it at all (nothing executed, no fee), or null. */
  readonly rejected: SubmissionRejected["kind"] | null;
  readonly err: TransactionErrorJson | null;
  /** The `Custom` code of the failing instruction (ours, or a CPI callee's under our index), or null. */
  readonly code: number | null;
  /** The IDL name of our program's error (`DailyLimitExceeded`...), or null. */
  readonly error: string | null;
  readonly logs: readonly string[];
  readonly computeUnits: number;
  /** Our program's events, decoded from the logs. */
  readonly events: readonly LoggedAgentPolicyEvent[];
  readonly fee: bigint;
}

export interface SendInput {
  readonly payer: KeyPairSigner;
  readonly instructions: readonly Instruction[];
  /** Signers besides those the instructions' account metas carry. */
  readonly signers?: readonly KeyPairSigner[];
}

/** `{ InstructionError: [index, { Custom: code }] }` -> code, else null. */
export function customCode(err: unknown): number | null {
  const detail = (err as { InstructionError?: [number, { Custom?: number | bigint }] } | null)
    ?.InstructionError?.[1];
  return detail?.Custom === undefined ? null : Number(detail.Custom);
}

/** Signs and lands `instructions` on `cluster` (see the module doc) and reads the outcome back. */
export async function sendToCluster(cluster: EmbeddedCluster, input: SendInput): Promise<Outcome> {
  const now = cluster.clock.unixTimestamp;
  cluster.clock.advance(1);
  cluster.clock.setUnixTime(now);
  const { wire } = await signTransactionToWire({
    feePayer: input.payer,
    instructions: input.instructions,
    blockhash: cluster.getLatestBlockhash().blockhash,
    signers: input.signers,
  });
  let signature: string;
  try {
    signature = cluster.sendTransaction(wire);
  } catch (error) {
    if (!(error instanceof SubmissionRejected)) throw error;
    return {
      signature: null,
      rejected: error.kind,
      err: error.outcome?.err ?? error.kind,
      code: null,
      error: null,
      logs: error.outcome?.logs ?? [],
      computeUnits: 0,
      events: [],
      fee: 0n,
    };
  }
  const record = cluster.getTransaction(signature);
  if (record === null) throw new Error(`transaction ${signature} landed but is not in the history`);
  const programError = getAgentPolicyErrorFromTransactionError(record.err, {
    instructionProgramAddresses: input.instructions.map((instruction) => instruction.programAddress),
    programAddress: cluster.programId as Instruction["programAddress"],
  });
  return {
    signature,
    rejected: null,
    err: record.err,
    code: customCode(record.err),
    error: programError?.name ?? null,
    logs: record.logs,
    computeUnits: Number(record.computeUnitsConsumed),
    // Parsed even when the transaction failed, so a test can show a refusal emitted nothing.
    events: parseAgentPolicyEvents(record.logs).events,
    fee: record.fee,
  };
}

/** The names of the events an outcome emitted, in order. */
export function eventNames(outcome: Outcome): string[] {
  return outcome.events.map((event) => event.name);
}
