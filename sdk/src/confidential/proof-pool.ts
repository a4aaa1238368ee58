/**
 * The proof worker pool: every proof of a confidential transfer (owner and agent paths) is made on
 * a worker thread, so one process uses every core and its event loop never waits on a proof.
 *
 * - Size: `os.availableParallelism()` by default; `configureProofPool({ workers })` sets it (the API
 *   reads `PROOF_WORKERS`). Workers start lazily, one per queued job up to the size, and are reused.
 * - One job per worker at a time, taken from one queue in submission order: a long range proof
 *   never sits behind another on a busy worker while a second worker idles.
 * - A worker holding a job is `ref`'d (the process waits for the answer); an idle one is `unref`'d,
 *   so the pool never keeps a process alive.
 * - A worker that dies fails only the job it held (`proof_worker_failed`) and is dropped; the next
 *   job starts a replacement. A task that throws fails its job with the same code and the worker
 *   stays.
 * - A job names a task module (`runTask(input, partial)`, see proof-worker.ts) by file URL; inputs
 *   and outputs are plain data (bytes, bigints), since zk-sdk objects belong to one thread's
 *   instance. Secrets cross as bytes inside this process only and are never logged; an error's
 *   text is the task's error message, which never carries inputs.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { ConfidentialError } from "./errors";

/** The most workers one pool may have: far above any core count this runs on. */
export const MAX_PROOF_WORKERS = 256;

/** A task module's file URL, typed by its input, output and partial result. */
export interface ProofTask<Input, Output, Partial = never> {
  readonly url: string;
  /** Phantom: ties the URL to its types (never set). */
  readonly types?: { readonly input: Input; readonly output: Output; readonly partial: Partial };
}

/** Names the task module at `url` (a `new URL("./x-task.ts", import.meta.url)`). */
export function proofTask<Input, Output, Partial = never>(url: URL): ProofTask<Input, Output, Partial> {
  return { url: url.href };
}

interface Job {
  readonly id: number;
  readonly task: string;
  readonly input: unknown;
  readonly onPartial: ((partial: unknown) => void) | undefined;
  readonly resolve: (output: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface PoolWorker {
  readonly thread: Worker;
  job: Job | null;
}

type WorkerReply =
  | { readonly id: number; readonly partial: unknown }
  | { readonly id: number; readonly output: unknown }
  | { readonly id: number; readonly error: string };

let size = defaultSize();
let nextId = 0;
const workers: PoolWorker[] = [];
const queue: Job[] = [];

function defaultSize(): number {
  return Math.max(1, Math.min(MAX_PROOF_WORKERS, availableParallelism()));
}

/**
 * Sets the number of workers (`undefined`: the available cores). Takes effect for the next jobs:
 * a smaller pool retires idle workers now and busy ones when they finish.
 */
export function configureProofPool(options: { readonly workers?: number }): void {
  const workers = options.workers ?? defaultSize();
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_PROOF_WORKERS) {
    throw new RangeError(`proof workers must be an integer from 1 to ${MAX_PROOF_WORKERS}, got ${workers}`);
  }
  size = workers;
  retireSurplus();
  dispatch();
}

/** The pool's size and what it is doing now (for tests and metrics). */
export function proofPoolState(): {
  readonly size: number;
  readonly started: number;
  readonly busy: number;
  readonly queued: number;
} {
  const busy = workers.filter((w) => w.job !== null).length;
  return { size, started: workers.length, busy, queued: queue.length };
}

/**
 * Runs `task` on a pool worker with `input`; `onPartial` receives what the task reports before it
 * finishes (e.g. a transfer's ciphertexts before its proofs). Rejects with `proof_worker_failed`
 * when the task throws or its worker dies.
 */
export function runProofTask<Input, Output, Partial>(
  task: ProofTask<Input, Output, Partial>,
  input: Input,
  onPartial?: (partial: Partial) => void,
): Promise<Output> {
  return new Promise<Output>((resolve, reject) => {
    queue.push({
      id: nextId++,
      task: task.url,
      input,
      onPartial: onPartial as ((partial: unknown) => void) | undefined,
      resolve: resolve as (output: unknown) => void,
      reject,
    });
    dispatch();
  });
}

function dispatch(): void {
  while (queue.length > 0) {
    let idle = workers.find((w) => w.job === null);
    if (idle === undefined) {
      if (workers.length >= size) return;
      idle = startWorker();
    }
    const job = queue.shift() as Job;
    idle.job = job;
    // Referenced while it holds a job, so the process waits for the answer.
    idle.thread.ref();
    idle.thread.postMessage({ id: job.id, task: job.task, input: job.input });
  }
}

function startWorker(): PoolWorker {
  const thread = new Worker(new URL("./proof-worker.mjs", import.meta.url));
  thread.unref();
  const member: PoolWorker = { thread, job: null };
  workers.push(member);
  thread.on("message", (reply: WorkerReply) => onReply(member, reply));
  thread.on("error", (error) => onDeath(member, error.message));
  thread.on("exit", (code) => onDeath(member, `exited with code ${code}`));
  return member;
}

function onReply(member: PoolWorker, reply: WorkerReply): void {
  const job = member.job;
  if (job === null || job.id !== reply.id) return;
  if ("partial" in reply) {
    try {
      job.onPartial?.(reply.partial);
    } catch {
      // The caller's callback failing is the caller's to handle; the job still answers.
    }
    return;
  }
  member.job = null;
  member.thread.unref();
  if ("error" in reply) {
    job.reject(new ConfidentialError("proof_worker_failed", `proof task failed: ${reply.error}`));
  } else {
    job.resolve(reply.output);
  }
  retireSurplus();
  dispatch();
}

/** Drops a dead worker; only the job it held fails, and a queued job gets a replacement. */
function onDeath(member: PoolWorker, reason: string): void {
  const index = workers.indexOf(member);
  if (index === -1) return;
  workers.splice(index, 1);
  const job = member.job;
  member.job = null;
  job?.reject(new ConfidentialError("proof_worker_failed", `proof worker died: ${reason}`));
  dispatch();
}

/** Ends idle workers beyond the size (after `configureProofPool` made the pool smaller). */
function retireSurplus(): void {
  for (const member of [...workers]) {
    if (workers.length <= size) return;
    if (member.job !== null) continue;
    workers.splice(workers.indexOf(member), 1);
    void member.thread.terminate();
  }
}
