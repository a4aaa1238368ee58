/**
 * A transfer row's states and the moves between them, as data. `status` is what the API shows
 * (`@cpay/sdk/api` `ZTransferStatus`), `phase` what the service is waiting for; a state names the
 * pair (and, for the one failure that can be undone, its failure code):
 *
 *   submitting --(funds-moving tx landed)---> submitted   --(confirmed)--> confirmed
 *   submitting --(the program held it)------> held        --(approved)---> submitted
 *   submitting --(nothing moved)------------> failed | not_landed
 *   submitted  --(dropped)------------------> failed      held --(rejected, expired)--> failed
 *   confirmed  --(the chain reverted it)----> failed
 *   not_landed --(it landed after all)------> submitted | held
 *
 * `failed` is final. `not_landed` is crash recovery's verdict that nothing landed; a slow submission
 * of another process may still land, which is why it may move on.
 */
import type { TTransferDetail } from "@cpay/sdk/api";
import { and, eq, or, type SQL } from "drizzle-orm";
import type { Tables } from "../db/schema";

/** What the API shows: the words of `@cpay/sdk/api` `ZTransferStatus`, not a copy of them. */
export type TransferStatus = TTransferDetail["status"];

/** What the service is waiting for: to hear from the chain, the owner, confirmation, or nothing. */
export type TransferPhase = "submitting" | "submitted" | "held" | "settled";

/** A `failure_code` meaning crash recovery found nothing on chain (see `markSubmitted`). */
export const NOT_LANDED = "not_landed";

/** The columns each state is written with. */
export const TRANSFER_STATES = {
  submitting: { status: "pending", phase: "submitting" },
  submitted: { status: "pending", phase: "submitted" },
  held: { status: "pending", phase: "held" },
  confirmed: { status: "confirmed", phase: "settled" },
  failed: { status: "failed", phase: "settled" },
  not_landed: { status: "failed", phase: "settled" },
} as const satisfies Record<string, { status: TransferStatus; phase: TransferPhase }>;
export type TransferState = keyof typeof TRANSFER_STATES;

/** Where each state may go; every other move is refused. */
export const TRANSFER_TRANSITIONS: Readonly<Record<TransferState, readonly TransferState[]>> = {
  submitting: ["submitted", "held", "failed", "not_landed"],
  submitted: ["confirmed", "failed"],
  held: ["submitted", "failed"],
  confirmed: ["failed"],
  failed: [],
  not_landed: ["submitted", "held"],
};

/** True when a row in state `from` may move to `to`. */
export function canTransition(from: TransferState, to: TransferState): boolean {
  return TRANSFER_TRANSITIONS[from].includes(to);
}

/** Thrown for a move the table does not allow: a bug in the caller, never a race. */
export class IllegalTransferTransition extends Error {
  override readonly name = "IllegalTransferTransition";
  constructor(
    readonly from: TransferState,
    readonly to: TransferState,
  ) {
    super(`a transfer cannot move from ${from} to ${to}`);
  }
}

/**
 * The SQL guard of a move to `to` from any of `from`: the row must be in one of them when the
 * update runs, so of two observers of one fact only the first changes the row. Throws
 * `IllegalTransferTransition` when the table refuses a move.
 */
export function transitionGuard(
  transfers: Tables["transfers"],
  from: readonly TransferState[],
  to: TransferState,
): SQL {
  const leaving = from.map((state) => {
    if (state === "failed" || !canTransition(state, to)) throw new IllegalTransferTransition(state, to);
    return inState(transfers, state);
  });
  return or(...leaving) as SQL;
}

/** The rows in `state` (`failed` is never left, so never asked for). */
function inState(transfers: Tables["transfers"], state: Exclude<TransferState, "failed">): SQL {
  const { status, phase } = TRANSFER_STATES[state];
  const columns = and(eq(transfers.status, status), eq(transfers.phase, phase)) as SQL;
  return state === "not_landed" ? (and(columns, eq(transfers.failureCode, NOT_LANDED)) as SQL) : columns;
}
