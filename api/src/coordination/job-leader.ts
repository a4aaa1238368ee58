/**
 * One leader per background job among the API processes sharing a database: a pass of a job runs
 * only in the process holding the job's lease (`job:<name>`, coordination/lease.ts), so two
 * processes never settle, reconcile, expire or close the same thing at once. The leader keeps its
 * lease across passes (renewed every third of JOB_LEASE_MS while it lives, during a long pass too)
 * and gives it up when the job stops; a leader that dies stops renewing, and after JOB_LEASE_MS
 * the next process whose pass comes round takes the job over. Followers' passes do nothing but
 * try the lease.
 */
import type { Database } from "@cpay/ledger/database";
import type { Logger } from "../core/logger";
import { type HeldLease, releaseLease, renewLease, tryAcquireLease } from "./lease";

export const JOB_LEASE_MS = 10_000;

export interface JobLeadership {
  /** Runs `pass` if this process leads the job (taking the lead when it is free); else nothing. */
  run(pass: () => Promise<void>): Promise<void>;
  /** Gives the lead up (at stop), so another process takes it over at once. */
  resign(): Promise<void>;
}

export function jobLeadership(
  db: Database,
  logger: Logger,
  job: string,
  ttlMs: number = JOB_LEASE_MS,
): JobLeadership {
  const name = `job:${job}`;
  let lease: HeldLease | null = null;
  let renewer: ReturnType<typeof setInterval> | null = null;
  let renewing: Promise<unknown> = Promise.resolve();

  const drop = () => {
    if (renewer !== null) clearInterval(renewer);
    renewer = null;
    lease = null;
  };
  const renew = async (held: HeldLease) => {
    if (!(await renewLease(db, held, ttlMs)) && lease === held) {
      logger.warn({ job }, "lost the lead of a background job (this process stalled past its lease)");
      drop();
    }
  };
  const lead = async (): Promise<boolean> => {
    // Renewed before every pass, not only by the timer: a process that stalled past its lease
    // learns it lost the lead before it acts, not a third of a period later.
    if (lease !== null && (await renewLease(db, lease, ttlMs))) return true;
    if (lease !== null) {
      logger.warn({ job }, "lost the lead of a background job (this process stalled past its lease)");
      drop();
    }
    lease = await tryAcquireLease(db, name, ttlMs);
    if (lease === null) return false;
    const held = lease;
    renewer = setInterval(
      () => {
        renewing = renew(held).catch(() => {});
      },
      Math.max(1, Math.floor(ttlMs / 3)),
    );
    renewer.unref();
    return true;
  };
  return {
    async run(pass) {
      if (await lead()) await pass();
    },
    async resign() {
      const held = lease;
      drop();
      await renewing;
      if (held !== null) await releaseLease(db, held).catch(() => {});
    },
  };
}
