/**
 * Worker-thread entry of the proof pool (proof-pool.ts): runs one job at a time with the task
 * module the job names. A task module exports `runTask(input, partial)`, returning plain data;
 * `partial(value)` sends a result ahead of the end. This thread has its own zk-sdk instance, so
 * nothing but plain data (bytes, bigints) crosses to or from it.
 */
import { parentPort } from "node:worker_threads";

interface ProofJobMessage {
  readonly id: number;
  readonly task: string;
  readonly input: unknown;
}

interface TaskModule {
  runTask(input: unknown, partial: (value: unknown) => void): unknown;
}

if (parentPort === null) throw new Error("proof-worker must run as a worker thread");
const port = parentPort;
const modules = new Map<string, Promise<TaskModule>>();

function taskModule(url: string): Promise<TaskModule> {
  let loaded = modules.get(url);
  if (loaded === undefined) {
    loaded = import(url) as Promise<TaskModule>;
    modules.set(url, loaded);
  }
  return loaded;
}

port.on("message", async (job: ProofJobMessage) => {
  try {
    const task = await taskModule(job.task);
    const output = task.runTask(job.input, (partial) => port.postMessage({ id: job.id, partial }));
    port.postMessage({ id: job.id, output });
  } catch (error) {
    // The message only: a task's errors describe the statement's shape, never its secret inputs.
    port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
