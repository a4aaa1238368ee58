/**
 * How API processes sharing a database agree (`@cpay/api/coordination`): leases, turns, job
 * leaders and shared rate windows. Other services on the same database (a second API host, the
 * indexer) use the same rows.
 */
export { JOB_LEASE_MS, type JobLeadership, jobLeadership } from "./job-leader";
export {
  type HeldLease,
  holdingLease,
  isLeaseLive,
  releaseLease,
  renewLease,
  sweepLapsedLeases,
  tryAcquireLease,
  withLease,
} from "./lease";
export { countInWindow, currentWindow, sweepEndedWindows, WINDOW_MS, type Window } from "./rate-window";
export { TURN_LEASE_MS, withTurn } from "./turn";
export { databaseWindows, memoryWindows, type WindowStore, windowStoreFor } from "./window-store";
