/**
 * What one program event says, with everything the chain had to be asked about it already read:
 * the indexer reads the chain BEFORE it opens a database transaction (an RPC round trip must never
 * hold SQLite's write lock), then applies these facts inside one transaction with the checkpoint.
 */
import type { Hold } from "@cpay/sdk/agent-confidential";

/** Where an event sits in its transaction: the indexed_events key. */
export interface EventPosition {
  readonly signature: string;
  readonly slot: bigint;
  /** Unix seconds of the block. */
  readonly blockTime: bigint;
  readonly instructionIndex: number;
  /** 0-based among the events of that instruction. */
  readonly eventIndex: number;
  /** The program event's IDL name. */
  readonly event: string;
}

/** Funds moved: an owner transfer's record, or an agent's transfer (direct or from an approved hold). */
export interface TransferExecutedFact {
  readonly kind: "transfer_executed";
  readonly position: EventPosition;
  /** `tr_...` from the event's 16-byte transfer id. */
  readonly transferId: string;
  /**
   * `record`: `ServiceTransferRecorded` (any signer may emit it); `agent`: the agent's own
   * `TransferExecuted` / `ConfidentialTransferExecuted`, emitted by the program for its PDA.
   */
  readonly by: "record" | "agent";
  /** The record's signer, or the agent PDA. */
  readonly sender: string;
  readonly source: string;
  readonly destination: string;
  /** The wallet (or PDA) owning the destination token account; null if it is gone. */
  readonly recipient: string | null;
  readonly mint: string;
  readonly confidential: boolean;
  readonly fromHold: boolean;
}

/** The program held an agent's transfer for its owner. */
export interface TransferHeldFact {
  readonly kind: "transfer_held";
  readonly position: EventPosition;
  readonly transferId: string;
  readonly agent: string;
  readonly pending: string;
  readonly expiresAt: bigint;
  /** The hold as its account says (recipient, confidential); null once the account is closed. */
  readonly hold: Hold | null;
  /** Owner of the hold's destination token account, when the hold could be read. */
  readonly recipient: string | null;
}

/** The owner approved or rejected a hold, or anyone closed it after expiry. */
export interface HoldDecidedFact {
  readonly kind: "hold_decided";
  readonly position: EventPosition;
  readonly decision: "approved" | "rejected" | "expired";
  readonly agent: string;
  readonly pending: string;
  readonly transferId: string;
}

export interface PolicyUpdatedFact {
  readonly kind: "policy_updated";
  readonly position: EventPosition;
  readonly agent: string;
}

/** An event with no record behind it (config, handle registration, agent creation). */
export interface OtherFact {
  readonly kind: "other";
  readonly position: EventPosition;
}

export type ObservedFact =
  | TransferExecutedFact
  | TransferHeldFact
  | HoldDecidedFact
  | PolicyUpdatedFact
  | OtherFact;
