/**
 * Deletes expired `Idempotency-Key` records (a background job; jobs.ts imports this module): every
 * SWEEP_EVERY_MS, and once at start, every row past `expires_at` (24 h after its claim) is
 * deleted, so a stored answer — sealed, and never holding a secret — is kept 24 h, not forever.
 * The same pass deletes the lease rows dead processes left behind (coordination/lease.ts). One
 * process sweeps at a time (coordination/job-leader.ts).
 */
import { registerBackgroundJob } from "../background";
import { jobLeadership } from "../coordination/job-leader";
import { sweepLapsedLeases } from "../coordination/lease";
import { describeUnexpected } from "./error-handler";
import { sweepExpiredIdempotencyKeys } from "./idempotency";

export const SWEEP_EVERY_MS = 15 * 60 * 1000;
/** Leases of dead holders are free already; their rows are deleted an hour after they lapsed. */
const LAPSED_LEASE_GRACE_MS = 60 * 60 * 1000;

registerBackgroundJob((service) => {
  const leader = jobLeadership(service.db, service.logger, "sweep-idempotency");
  let running: Promise<unknown> | null = null;
  const sweep = () => {
    if (running !== null) return;
    running = leader
      .run(async () => {
        await sweepExpiredIdempotencyKeys(service);
        await sweepLapsedLeases(service.db, LAPSED_LEASE_GRACE_MS);
      })
      .catch((error: unknown) => {
        service.logger.warn({ err: describeUnexpected(error) }, "idempotency sweep failed; retrying later");
      })
      .finally(() => {
        running = null;
      });
  };
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
    await leader.resign();
  };
});
