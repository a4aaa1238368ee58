/**
 * The limit proofs on a worker thread, concurrently with the Token-2022 transfer proofs: one
 * agent transfer then takes about as long to prove as a plain confidential transfer (the extra
 * 64-bit range proof is half of a U128 one, so on one thread it would add ~50%).
 *
 * One worker per process, started on first use (a small .mjs bootstrap registers tsx, as the rest of
 * the project runs, and loads its own zk-sdk instance) and `unref`'d so it never keeps a process alive. A worker that
 * dies fails the requests in flight with `limit_proof_worker_failed`; the next request starts a
 * new one. The agent's ElGamal secret crosses to the worker as 32 bytes inside this process only.
 */
import { Worker } from "node:worker_threads";
import { ConfidentialError } from "../confidential/errors";
import type { ElGamalKeypair } from "../confidential/zk-sdk";
import type { LimitProofRequest } from "./limit-proof-worker";
import type { LimitProofData, LimitStatements } from "./limit-proofs";

interface Pending {
  readonly resolve: (proofs: LimitProofData) => void;
  readonly reject: (error: Error) => void;
}

type LimitProofReply =
  | { readonly id: number; readonly proofs: LimitProofData }
  | { readonly id: number; readonly error: string };

let worker: Worker | null = null;
let nextId = 0;
const inFlight = new Map<number, Pending>();

function failAll(reason: string): void {
  worker = null;
  for (const pending of inFlight.values()) {
    pending.reject(
      new ConfidentialError("limit_proof_worker_failed", `limit-proof worker failed: ${reason}`),
    );
  }
  inFlight.clear();
}

function startWorker(): Worker {
  const started = new Worker(new URL("./limit-proof-worker.mjs", import.meta.url));
  started.unref();
  started.on("message", (reply: LimitProofReply) => {
    const pending = inFlight.get(reply.id);
    if (pending === undefined) return;
    inFlight.delete(reply.id);
    if ("error" in reply) {
      pending.reject(
        new ConfidentialError("limit_proof_worker_failed", `limit proofs failed: ${reply.error}`),
      );
    } else {
      pending.resolve(reply.proofs);
    }
    if (inFlight.size === 0) started.unref();
  });
  started.on("error", (error) => failAll(error.message));
  started.on("exit", (code) => failAll(`exited with code ${code}`));
  return started;
}

/** Proves `statements` on the worker thread with `elgamal`'s secret. */
export function proveLimitStatementsConcurrently(
  elgamal: ElGamalKeypair,
  statements: LimitStatements,
): Promise<LimitProofData> {
  worker ??= startWorker();
  const running = worker;
  const id = nextId++;
  const request: LimitProofRequest = { id, elgamalSecret: elgamal.secret().toBytes(), statements };
  return new Promise<LimitProofData>((resolve, reject) => {
    inFlight.set(id, { resolve, reject });
    // Referenced while a request is in flight, so the process waits for its answer.
    running.ref();
    running.postMessage(request);
  });
}
