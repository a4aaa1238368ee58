/**
 * Deletes expired `Idempotency-Key` records (a background job; jobs.ts imports this module): every
 * SWEEP_EVERY_MS, and once at start, every row past `expires_at` (24 h after its claim) is
 * deleted, so a stored answer — sealed, and never holding a secret — is kept 24 h, not forever.
 */
import { registerBackgroundJob } from "../background";
import { describeUnexpected } from "./error-handler";
import { sweepExpiredIdempotencyKeys } from "./idempotency";

export const SWEEP_EVERY_MS = 15 * 60 * 1000;

registerBackgroundJob((service) => {
  let running: Promise<unknown> | null = null;
  const sweep = () => {
    if (running !== null) return;
    running = sweepExpiredIdempotencyKeys(service)
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
  };
});
