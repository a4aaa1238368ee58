/**
 * Deletes expired `Idempotency-Key` records (a background job; jobs.ts imports this module): every
 * SWEEP_EVERY_MS, and once at start, every row past `expires_at` (24 h after its claim) is
 * deleted, so a stored answer — sealed, and never holding a secret — is kept 24 h, not forever.
 * The same pass deletes the lease rows dead processes left behind (coordination/lease.ts). One
 * process sweeps at a time (coordination/job-leader.ts).
 */
import { registerLeaderJob } from "../coordination/background-jobs";
import { sweepLapsedLeases } from "../coordination/lease";
import { sweepExpiredIdempotencyKeys } from "./idempotency";

export const SWEEP_EVERY_MS = 15 * 60 * 1000;
/** Leases of dead holders are free already; their rows are deleted an hour after they lapsed. */
const LAPSED_LEASE_GRACE_MS = 60 * 60 * 1000;

registerLeaderJob({
  name: "sweep-idempotency",
  everyMs: SWEEP_EVERY_MS,
  pass: async (service) => {
    await sweepExpiredIdempotencyKeys(service);
    await sweepLapsedLeases(service.db, LAPSED_LEASE_GRACE_MS);
  },
  failure: "idempotency sweep failed",
  atStart: true,
});
