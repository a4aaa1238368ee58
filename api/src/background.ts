/**
 * Long-running work of the API process, started after the HTTP server and stopped before the
 * database closes: settling submitted transfers, expiring held agent transactions. Each job is a
 * function that starts and returns its stopper; a stopper resolves once in-flight work finished.
 */
import type { ServiceContext } from "./service-context";

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
