/**
 * Waiting for a background job of the API to have run, by what it leaves in the database rather
 * than for a time it is assumed to take: the process leading job `<name>` renews the `job:<name>`
 * lease before every pass (api/src/coordination/job-leader.ts; taking the lead sets it too), and a
 * process starts a pass only once its previous one ended (api/src/coordination/background-jobs.ts). The lease's
 * renewal timer (every third of the lease, 10 s) moves the expiry too, at most once in 3.3 s, so
 * for a job whose passes come more often than that (recover-submissions: every second) three new
 * expiries hold at least two pass starts: at least one whole pass ran after the call began. (Not
 * for slower jobs, such as close-receipts every 5 s: the timer's renewals would count as passes.)
 */
import type { Database } from "@cpay/ledger/database";
import { eq } from "drizzle-orm";

/** Resolves once at least one whole pass of `job` ran after the call (see the module doc). */
export async function jobPassRan(db: Database, job: string, timeoutMs = 60_000): Promise<void> {
  const { leases } = db.tables;
  const expiry = async () => {
    const [row] = await db.read((q) =>
      q
        .select()
        .from(leases)
        .where(eq(leases.name, `job:${job}`)),
    );
    return row === undefined ? null : Number(row.expiresAt);
  };
  const initial = await expiry();
  const seen = new Set<number>();
  const deadline = Date.now() + timeoutMs;
  while (seen.size < 3) {
    if (Date.now() > deadline) throw new Error(`no pass of ${job} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = await expiry();
    if (now !== null && now !== initial) seen.add(now);
  }
}
