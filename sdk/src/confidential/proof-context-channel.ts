/**
 * Where the transactions of a proof-context run (proof-contexts.ts) go and how a failed run is
 * cleaned up. The run plans the same transactions either way; a channel signs, submits and closes:
 * - `clusterChannel`, the default: the payer signs everything it appears in and each transaction is
 *   sent to the ClusterPort (transactions.ts `submit`);
 * - `relayChannel` (relayed-proof-contexts.ts): the payer is a relay's fee payer, which signs its fee
 *   and nothing else; the transactions go to the relay with the fee payer's slot empty.
 */
import type { Instruction, KeyPairSigner, TransactionSigner } from "@solana/kit";
import type { ClusterPort } from "../cluster/cluster-port";
import { closeContexts } from "./close-proof-contexts";
import type { ConfidentialStep, ContextAccountOutcome } from "./errors";
import type { ContextAuthority, ContextProof } from "./proof-contexts";
import type { ProofStaging } from "./proof-staging";
import {
  landedStatus,
  type PreparedTransaction,
  type SignedTransaction,
  signTransaction,
  submit,
} from "./transactions";

export type Blockhash = { readonly blockhash: string; readonly lastValidBlockHeight: bigint };

/** A proof with the fresh account it is verified into. */
export interface PlannedContext extends ContextProof {
  readonly account: KeyPairSigner;
}

export interface ProofContextChannel<T extends PreparedTransaction> {
  /** Signs the staging buffer's Writes and Close. */
  readonly bufferAuthority: TransactionSigner;
  /** The blockhash the run's transactions are signed with. */
  latestBlockhash(): Promise<Blockhash>;
  sign(step: ConfidentialStep, instructions: readonly Instruction[], blockhash: Blockhash): Promise<T>;
  /** Submits all, waits for all; throws the first failure (in plan order) once every one settled. */
  submitConcurrently(transactions: readonly T[]): Promise<string[]>;
  /** The final transaction, counted as done if it landed even though its submission reported an error. */
  submitFinal(final: T): Promise<string>;
  /** After a failure: closes what the run left (best effort) and reports each context's fate. */
  cleanUp(planned: readonly PlannedContext[], staging: ProofStaging | null): Promise<ContextAccountOutcome[]>;
  /** The final transaction's signature if it landed successfully after all, else null. */
  finalLanded(final: T, planned: readonly PlannedContext[]): Promise<string | null>;
}

/** The default channel: the payer signs and pays, every transaction goes to the cluster. */
export function clusterChannel(
  cluster: ClusterPort,
  payer: TransactionSigner,
  authority: ContextAuthority,
): ProofContextChannel<SignedTransaction> {
  return {
    bufferAuthority: payer,
    latestBlockhash: async () => cluster.getLatestBlockhash(),
    sign: (step, instructions, blockhash) =>
      signTransaction({ step, feePayer: payer, blockhash, instructions }),
    async submitConcurrently(transactions) {
      const results = await Promise.allSettled(
        transactions.map((transaction) => submit(cluster, transaction)),
      );
      const failed = results.find((result) => result.status === "rejected");
      if (failed !== undefined) throw failed.reason;
      return results.map((result) => (result as PromiseFulfilledResult<string>).value);
    },
    async submitFinal(final) {
      try {
        return await submit(cluster, final);
      } catch (error) {
        if (landedStatus(cluster, final.signature) === "succeeded") return final.signature;
        throw error;
      }
    },
    async cleanUp(planned, staging) {
      const contexts = await closeLeftovers(cluster, payer, authority, planned);
      if (staging !== null) await closeStaging(cluster, payer, staging);
      return contexts;
    },
    finalLanded: async (final) =>
      landedStatus(cluster, final.signature) === "succeeded" ? final.signature : null,
  };
}

/** Each context's fate once clean-up ran: `created` are the ones that existed before it. */
export function contextOutcomes(
  cluster: ClusterPort,
  planned: readonly PlannedContext[],
  created: readonly PlannedContext[],
): ContextAccountOutcome[] {
  return planned.map((context) => ({
    address: context.account.address,
    step: context.step,
    outcome: !created.includes(context)
      ? "never_created"
      : cluster.getAccount(context.account.address) === null
        ? "closed"
        : "orphaned",
  }));
}

/** Closes every context account of `planned` that exists; reports each one's fate. */
async function closeLeftovers(
  cluster: ClusterPort,
  payer: TransactionSigner,
  authority: ContextAuthority,
  planned: readonly PlannedContext[],
): Promise<ContextAccountOutcome[]> {
  const created = planned.filter((context) => cluster.getAccount(context.account.address) !== null);
  await closeContexts(
    cluster,
    payer,
    created.map((context) => ({ address: context.account.address, initializeWith: context })),
    authority.close,
  );
  return contextOutcomes(cluster, planned, created);
}

/** Closes a staging buffer left by a failed run (best effort: rent back to the payer). */
async function closeStaging(
  cluster: ClusterPort,
  payer: TransactionSigner,
  staging: ProofStaging,
): Promise<void> {
  if (cluster.getAccount(staging.buffer.address) === null) return;
  await signTransaction({
    step: "close_contexts",
    feePayer: payer,
    blockhash: cluster.getLatestBlockhash(),
    instructions: [staging.close],
  })
    .then((transaction) => submit(cluster, transaction))
    .catch(() => undefined);
}
