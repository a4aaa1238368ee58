/**
 * Transfers being made right now, agreed through the database so that any number of API processes
 * can share one (coordination/turn.ts, coordination/lease.ts):
 * - one at a time per sending account (`withAccountTurn`, turn `account:<id>`), so the balance
 *   check and the proofs of a transfer see the balance the previous transfer of the account left,
 *   never a stale one (the SDK serialises its own steps per token account, but not our
 *   check-then-write-then-submit); a confidential account has one transfer in flight at a time,
 *   whichever process makes it;
 * - the transfers whose request is still running (`whileInFlight`, lease `transfer:<id>`), which
 *   crash recovery must not judge (`isInFlight`): their `submitting` row is not a crash's leftover.
 * A process killed mid-transfer never releases either: both lapse after TURN_LEASE_MS, and the
 * account's next transfer (in any process) takes the turn over.
 */
import { isLeaseLive, withLease } from "../coordination/lease";
import { TURN_LEASE_MS, withTurn } from "../coordination/turn";
import type { ServiceContext } from "../core/service-context";

/** Runs `work` holding `accountId`'s turn: after every earlier turn of the account, in any process. */
export function withAccountTurn<T>(
  service: ServiceContext,
  accountId: string,
  work: () => Promise<T>,
): Promise<T> {
  return withTurn(service, `account:${accountId}`, work);
}

/** Marks `transferId` in flight (for every process) while `work` runs. */
export function whileInFlight<T>(
  service: ServiceContext,
  transferId: string,
  work: () => Promise<T>,
): Promise<T> {
  return withLease(service.db, `transfer:${transferId}`, TURN_LEASE_MS, work);
}

/** True while some process is still making transfer `transferId` (its lease is live). */
export function isInFlight(service: ServiceContext, transferId: string): Promise<boolean> {
  return isLeaseLive(service.db, `transfer:${transferId}`);
}
