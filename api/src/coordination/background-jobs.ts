/**
 * Long-running work of the API process, started after the HTTP server and stopped before the
 * database closes: recovering half-submitted transfers, expiring holds, closing
 * receipts, sweeping idempotency records, delivering webhooks. Each job is a function that starts
 * and returns its stopper; a stopper resolves once in-flight work finished.
 */

import { describeUnexpected } from "../core/describe-unexpected";
import type { ServiceContext } from "../core/service-context";
import { jobLeadership } from "./job-leader";

export type BackgroundJob = (service: ServiceContext) => () => Promise<void>;

const jobs: BackgroundJob[] = [];

/** Registers a job (at module load of the domain that owns it). */
export function registerBackgroundJob(job: BackgroundJob): void {
  jobs.push(job);
}

export function startBackgroundJobs(service: ServiceContext): () => Promise<void> {
  const stoppers = jobs.map((job) => job(service));
  return async () => {
    await Promise.all(stoppers.map((stop) => stop()));
  };
}

/**
 * Registers a periodic job that runs in one process at a time among those sharing the database
 * (coordination/job-leader.ts): every `everyMs` (and at start when `atStart`), `pass` runs if this
 * process leads `name` and no pass of it is running; a failed pass is logged as `failure` and the
 * next one retries. Stopping waits for a running pass, then gives the lead up.
 */
export function registerLeaderJob(job: {
  readonly name: string;
  readonly everyMs: number;
  readonly pass: (service: ServiceContext) => Promise<void>;
  /** The warning a failed pass logs (what failed; "retrying" is added). */
  readonly failure: string;
  readonly atStart?: boolean;
}): void {
  registerBackgroundJob((service) => {
    const leader = jobLeadership(service.db, service.logger, job.name);
    let stopped = false;
    let running: Promise<void> | null = null;
    const tick = () => {
      if (stopped || running !== null) return;
      running = leader
        .run(() => job.pass(service))
        .catch((error: unknown) => {
          service.logger.warn({ err: describeUnexpected(error) }, `${job.failure}; retrying`);
        })
        .finally(() => {
          running = null;
        });
    };
    if (job.atStart === true) tick();
    const timer = setInterval(tick, job.everyMs);
    // A job alone never keeps the process alive: the HTTP server does.
    timer.unref();
    return async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      await leader.resign();
    };
  });
}
