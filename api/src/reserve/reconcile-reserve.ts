/**
 * Settling the fee reserve's spends after the requests that made them answered (pending-spends.ts
 * holds them; reserve-scope.ts says why they wait). A transaction the cluster does not know counts
 * as never landed (cost 0) only once its blockhash has expired: before that, a send whose answer
 * was lost can still land, and its reservation stays held. Two paths, one settle:
 * - the process that made a spend queues it here and settles it as soon as its transactions are
 *   `confirmed` (readable): one batched status read per pass for every queued signature, one
 *   database transaction for every spend that became ready;
 * - a background job (one leader among the processes) sweeps rows older than STALE_MS: spends of
 *   a process that died (restarted or not), or that its process gave up on (still short of
 *   `confirmed` after GIVE_UP_MS: the cluster stalled). A row a live queue still holds may be
 *   swept too; the settle deletes the row, so whichever comes second charges nothing.
 * Graceful shutdown drains the queue for up to SHUTDOWN_WAIT_MS; what is left is in the rows.
 */
import type { SignatureStatus, TransactionRecord } from "@cpay/sdk/chain";
import { registerBackgroundJob, registerLeaderJob } from "../coordination/background-jobs";
import { describeUnexpected } from "../core/describe-unexpected";
import type { ServiceContext } from "../core/service-context";
import { advanceFlowsIn } from "./advances";
import { type PendingSpend, pendingSpendsBefore, settlePendingSpends } from "./pending-spends";
import { NO_CHARGE, type ReserveCharge } from "./reserve-charges";

/** Between passes of a process's queue: about half a slot of Solana's (and the localnet's) 400 ms. */
const RECONCILE_EVERY_MS = 200;
/** A queued spend still not readable after this long is left to the sweep (and logged). */
const GIVE_UP_MS = 60_000;
export const SWEEP_EVERY_MS = 10_000;
/** The sweep's age: well past a live queue's usual second or two, so it rarely repeats its reads. */
const STALE_MS = 10_000;
const SWEEP_BATCH = 256;
const SHUTDOWN_WAIT_MS = 10_000;
/** After a failed pass (cluster or database unreachable), the next one waits this long. */
const RETRY_AFTER_FAILURE_MS = 5_000;
/** getSignatureStatuses takes at most this many signatures a call. */
const STATUS_BATCH = 256;

interface Queue {
  readonly waiting: Map<string, { readonly spend: PendingSpend; readonly since: number }>;
  /** What each read signature charged, kept while a spend waits for its other signatures. */
  readonly known: Map<string, ReserveCharge>;
  timer: ReturnType<typeof setTimeout> | null;
  running: Promise<void> | null;
  /** Drained at shutdown: what comes later is left in its row for the next sweep. */
  closed: boolean;
}

const queues = new WeakMap<ServiceContext, Queue>();

/** Settles `spend` (already recorded) once its transactions are readable, in the background. */
export function reconcileLater(service: ServiceContext, spend: PendingSpend): void {
  const queue = queueOf(service);
  if (queue.closed) return;
  queue.waiting.set(spend.signatures[0], { spend, since: Date.now() });
  schedule(service, queue, RECONCILE_EVERY_MS);
}

function queueOf(service: ServiceContext): Queue {
  let queue = queues.get(service);
  if (queue === undefined) {
    queue = { waiting: new Map(), known: new Map(), timer: null, running: null, closed: false };
    queues.set(service, queue);
  }
  return queue;
}

function schedule(service: ServiceContext, queue: Queue, delayMs: number): void {
  if (queue.closed || queue.timer !== null || queue.running !== null || queue.waiting.size === 0) return;
  queue.timer = setTimeout(() => {
    queue.timer = null;
    let nextMs = RECONCILE_EVERY_MS;
    queue.running = passOverQueue(service, queue)
      .catch((error: unknown) => {
        // The cluster or the database is unreachable: the rows keep the spends; ask less often.
        nextMs = RETRY_AFTER_FAILURE_MS;
        service.logger.warn(
          { err: describeUnexpected(error) },
          "settling the fee reserve's spends failed; retrying",
        );
      })
      .finally(() => {
        queue.running = null;
        schedule(service, queue, nextMs);
      });
  }, delayMs);
  // The HTTP server keeps a serving process alive; this timer alone should not.
  queue.timer.unref();
}

async function passOverQueue(service: ServiceContext, queue: Queue): Promise<void> {
  const entries = [...queue.waiting.values()];
  try {
    const settled = await settleReady(
      service,
      entries.map((entry) => entry.spend),
      queue.known,
    );
    for (const spend of settled) forget(queue, spend);
  } finally {
    giveUpOnOld(service, queue);
  }
}

/** Leaves spends waiting past GIVE_UP_MS to the sweep (their rows stay), so the queue stays small. */
function giveUpOnOld(service: ServiceContext, queue: Queue): void {
  const now = Date.now();
  for (const [key, entry] of queue.waiting) {
    if (now - entry.since < GIVE_UP_MS) continue;
    forget(queue, entry.spend);
    service.logger.warn(
      { signature: key, account_id: entry.spend.accountId },
      "a fee reserve spend's transactions are still not confirmed; left to the sweep",
    );
  }
}

function forget(queue: Queue, spend: PendingSpend): void {
  queue.waiting.delete(spend.signatures[0]);
  for (const signature of spend.signatures) queue.known.delete(signature);
}

/**
 * Settles every spend whose transactions are all readable (or can no longer land); returns those.
 * `costs` holds what earlier passes read (each signature is read once) and gains what this one reads.
 */
async function settleReady(
  service: ServiceContext,
  spends: readonly PendingSpend[],
  costs: Map<string, ReserveCharge> = new Map(),
): Promise<PendingSpend[]> {
  const unread = new Map<string, Lifetime>();
  for (const spend of spends) {
    for (const signature of spend.signatures) {
      if (costs.has(signature) || unread.has(signature)) continue;
      unread.set(signature, {
        blockhash: spend.blockhashes.get(signature) ?? null,
        recordedAt: spend.recordedAt ?? service.clock(),
      });
    }
  }
  for (const [signature, cost] of await reserveCostsOf(service, unread)) costs.set(signature, cost);
  const ready: { spend: PendingSpend; actual: ReserveCharge }[] = [];
  for (const spend of spends) {
    let actual = NO_CHARGE;
    let known = true;
    for (const signature of spend.signatures) {
      const cost = costs.get(signature);
      if (cost === undefined) known = false;
      else actual = { loss: actual.loss + cost.loss, advance: actual.advance + cost.advance };
    }
    if (known) ready.push({ spend, actual });
  }
  await settlePendingSpends(service, ready);
  return ready.map(({ spend }) => spend);
}

/** What tells whether a signature the cluster does not know can still land. */
interface Lifetime {
  /** The blockhash its transaction was signed with; null on a row written before they were kept. */
  readonly blockhash: string | null;
  /** When its spend was recorded (epoch ms of the service clock). */
  readonly recordedAt: number;
}

/**
 * What each signature's transaction charged, for those whose answer is known: landed and
 * `confirmed` (read from its meta), or unknown to the cluster once it can no longer land (0). One
 * still at `processed`, or unknown while its blockhash is still valid (a send whose answer was lost
 * may yet land), is left out (asked again next pass).
 */
async function reserveCostsOf(
  service: ServiceContext,
  lifetimes: ReadonlyMap<string, Lifetime>,
): Promise<Map<string, ReserveCharge>> {
  const signatures = [...lifetimes.keys()];
  const statuses: (SignatureStatus | null)[] = [];
  for (let start = 0; start < signatures.length; start += STATUS_BATCH) {
    statuses.push(
      ...(await service.chain.getSignatureStatuses(signatures.slice(start, start + STATUS_BATCH))),
    );
  }
  const costs = new Map<string, ReserveCharge>();
  const expired = expiryChecks(service);
  await Promise.all(
    signatures.map(async (signature, index) => {
      const status = statuses[index] ?? null;
      if (status?.confirmationStatus === "processed") return;
      // Read even without a status: an old transaction has aged out of the status cache.
      const record = await service.chain.getTransaction(signature, "confirmed");
      if (record !== null) {
        costs.set(signature, reserveChargeIn(service, record));
        return;
      }
      if (status !== null) return;
      const lifetime = lifetimes.get(signature) as Lifetime;
      if (!(await expired(lifetime))) return;
      // It may have landed between the reads and the expiry: only a status read after it is final.
      if ((await service.chain.getSignatureStatus(signature)) === null) costs.set(signature, NO_CHARGE);
    }),
  );
  return costs;
}

/**
 * "Can a transaction with this lifetime no longer land?", each blockhash asked once per pass. The
 * blockhash is asked at `confirmed`: expired there, it is expired on every fork a later block can
 * extend. A row without one (written before blockhashes were kept) waits out the blockhash lifetime
 * crash recovery also waits out (`TRANSFER_RECONCILE_AFTER_SECONDS`).
 */
function expiryChecks(service: ServiceContext): (lifetime: Lifetime) => Promise<boolean> {
  const asked = new Map<string, Promise<boolean>>();
  return async ({ blockhash, recordedAt }) => {
    if (blockhash === null) return service.clock() - recordedAt >= service.config.transferReconcileAfterMs;
    let valid = asked.get(blockhash);
    if (valid === undefined) {
      valid = service.chain.isBlockhashValid(blockhash, "confirmed");
      asked.set(blockhash, valid);
    }
    return !(await valid);
  };
}

/** What a landed transaction cost the reserve (negative when more rent came back than it paid). */
export function reserveCostIn(service: ServiceContext, landed: TransactionRecord): bigint {
  const at = landed.accountKeys.indexOf(service.feePayer.address);
  if (at === -1) return 0n;
  return (landed.preBalances[at] ?? 0n) - (landed.postBalances[at] ?? 0n);
}

/**
 * What a landed transaction charged its account: its cost split into the rent it advanced (net of
 * advanced rent it returned, advances.ts) and the rest, lost (fees, rent that may not come back,
 * less such rent that came back).
 */
export function reserveChargeIn(service: ServiceContext, landed: TransactionRecord): ReserveCharge {
  const cost = reserveCostIn(service, landed);
  const { advanced, returned } = advanceFlowsIn(landed, {
    feePayer: service.feePayer.address,
    programId: service.chain.programId,
  });
  return { loss: cost - advanced + returned, advance: advanced - returned };
}

/**
 * Settles what the queue holds, for up to `waitMs` (a pass stuck on an unanswering cluster is not
 * waited for past it); stops early when a pass fails. What is left stays in its rows.
 */
async function drain(service: ServiceContext, waitMs: number): Promise<void> {
  const queue = queueOf(service);
  queue.closed = true;
  if (queue.timer !== null) clearTimeout(queue.timer);
  queue.timer = null;
  const deadline = Date.now() + waitMs;
  const passes = (async () => {
    await queue.running;
    while (queue.waiting.size > 0 && Date.now() < deadline) {
      await passOverQueue(service, queue);
      if (queue.waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, RECONCILE_EVERY_MS));
    }
  })();
  // A pass outliving the wait may fail once the database is closed: its settle is one transaction,
  // so the row stays whole for the next sweep.
  passes.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([passes, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]).catch(
    () => undefined,
  );
  clearTimeout(timer);
  queue.waiting.clear();
  queue.known.clear();
}

registerLeaderJob({
  name: "reconcile-reserve",
  everyMs: SWEEP_EVERY_MS,
  atStart: true,
  failure: "sweeping the fee reserve's spends failed",
  async pass(service) {
    const stale = await pendingSpendsBefore(service, service.clock() - STALE_MS, SWEEP_BATCH);
    await settleReady(service, stale);
  },
});

// The queue itself: nothing to start (requests fill it); stopping drains it.
registerBackgroundJob((service) => () => drain(service, SHUTDOWN_WAIT_MS));
