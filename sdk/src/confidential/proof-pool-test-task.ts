/**
 * TEST ONLY: a proof-pool task for proof-pool.test.ts. It ends its worker (`exit`), throws
 * (`throw`), or keeps its worker busy for `ms` (`spin`), and answers with the worker's thread id,
 * so the tests can tell which worker ran what.
 */
import { threadId } from "node:worker_threads";

export type PoolTestInput =
  | { readonly op: "exit" }
  | { readonly op: "throw" }
  | { readonly op: "spin"; readonly ms: number };

export function runTask(input: PoolTestInput): { readonly threadId: number } {
  if (input.op === "exit") process.exit(3);
  if (input.op === "throw") throw new Error("test task refused");
  const until = Date.now() + input.ms;
  while (Date.now() < until) {
    // Busy on purpose: a worker holding a job for a while.
  }
  return { threadId };
}
