/**
 * Proof-pool task (runs on a worker, proof-worker.ts): the limit proofs of an agent transfer
 * (limit-proofs.ts) from the agent's ElGamal secret and the statements as plain data. Independent
 * of the transfer's own proofs (fresh openings), so it runs on another worker beside them.
 */
import { ElGamalKeypair, ElGamalSecretKey } from "../confidential/zk-sdk";
import { type LimitProofData, type LimitStatements, proveLimitStatements } from "./limit-proofs";

export interface LimitProofTaskInput {
  /** The agent's ElGamal secret key (32 bytes). */
  readonly elgamalSecret: Uint8Array;
  readonly statements: LimitStatements;
}

export function runTask(input: LimitProofTaskInput): LimitProofData {
  const keypair = ElGamalKeypair.fromSecretKey(ElGamalSecretKey.fromBytes(input.elgamalSecret));
  return proveLimitStatements(keypair, input.statements);
}
