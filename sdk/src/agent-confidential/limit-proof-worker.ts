/**
 * Worker-thread entry of `limit-proof-thread.ts`: proves limit statements with the agent's ElGamal
 * secret while the main thread makes the Token-2022 proofs. Messages are plain data (the secret's
 * 32 bytes, the statements); zk-sdk objects cannot cross threads, and this thread has its own
 * zk-sdk instance, used only here.
 */
import { parentPort } from "node:worker_threads";
import { ElGamalKeypair, ElGamalSecretKey } from "../confidential/zk-sdk";
import { type LimitStatements, proveLimitStatements } from "./limit-proofs";

export interface LimitProofRequest {
  readonly id: number;
  readonly elgamalSecret: Uint8Array;
  readonly statements: LimitStatements;
}

if (parentPort === null) throw new Error("limit-proof-worker must run as a worker thread");
const port = parentPort;
port.on("message", (request: LimitProofRequest) => {
  try {
    const keypair = ElGamalKeypair.fromSecretKey(ElGamalSecretKey.fromBytes(request.elgamalSecret));
    port.postMessage({ id: request.id, proofs: proveLimitStatements(keypair, request.statements) });
  } catch (error) {
    port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
