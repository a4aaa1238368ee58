/**
 * Where the transactions of a proof-context run (proof-contexts.ts) go and how a failed run is
 * cleaned up. The run plans the same transactions either way; a channel signs, submits and closes:
 * - `clusterChannel`, the default: the payer signs everything it appears in and each transaction is
 *   sent to the chain port (transactions.ts `submit`);
 * - `relayChannel` (relayed-proof-contexts.ts): the payer is a relay's fee payer, which signs its fee
 *   and nothing else; the transactions go to the relay with the fee payer's slot empty.
 */
import type { Instruction, KeyPairSigner, TransactionSigner } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
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
  chain: ChainPort,
  payer: TransactionSigner,
  authority: ContextAuthority,
): ProofContextChannel<SignedTransaction> {
  return {
    bufferAuthority: payer,
    latestBlockhash: () => chain.getLatestBlockhash(),
    sign: (step, instructions, blockhash) =>
      signTransaction({ step, feePayer: payer, blockhash, instructions }),
    async submitConcurrently(transactions) {
      const results = await Promise.allSettled(transactions.map((transaction) => submit(chain, transaction)));
      const failed = results.find((result) => result.status === "rejected");
      if (failed !== undefined) throw failed.reason;
      return results.map((result) => (result as PromiseFulfilledResult<string>).value);
    },
    async submitFinal(final) {
      try {
        return await submit(chain, final);
      } catch (error) {
        if ((await landedStatus(chain, final.signature)) === "succeeded") return final.signature;
        throw error;
      }
    },
    async cleanUp(planned, staging) {
      const [contexts] = await Promise.all([
        closeLeftovers(chain, payer, authority, planned),
        staging === null ? undefined : closeStaging(chain, payer, staging),
      ]);
      return contexts;
    },
    finalLanded: async (final) =>
      (await landedStatus(chain, final.signature)) === "succeeded" ? final.signature : null,
  };
}

/** Each context's fate once clean-up ran: `created` are the ones that existed before it. */
export async function contextOutcomes(
  chain: ChainPort,
  planned: readonly PlannedContext[],
  created: readonly PlannedContext[],
): Promise<ContextAccountOutcome[]> {
  const existing = await existingContexts(chain, planned);
  return planned.map((context) => ({
    address: context.account.address,
    step: context.step,
    outcome: !created.includes(context)
      ? "never_created"
      : existing.includes(context)
        ? "orphaned"
        : "closed",
  }));
}

/** The contexts of `planned` whose accounts exist now (one read for all). */
export async function existingContexts(
  chain: ChainPort,
  planned: readonly PlannedContext[],
): Promise<PlannedContext[]> {
  const accounts = await chain.getMultipleAccounts(planned.map((context) => context.account.address));
  return planned.filter((_, index) => accounts[index] !== null);
}

/** Closes every context account of `planned` that exists; reports each one's fate. */
async function closeLeftovers(
  chain: ChainPort,
  payer: TransactionSigner,
  authority: ContextAuthority,
  planned: readonly PlannedContext[],
): Promise<ContextAccountOutcome[]> {
  const created = await existingContexts(chain, planned);
  await closeContexts(
    chain,
    payer,
    created.map((context) => ({ address: context.account.address, initializeWith: context })),
    authority.close,
  );
  return contextOutcomes(chain, planned, created);
}

/** Closes a staging buffer left by a failed run (best effort: rent back to the payer). */
async function closeStaging(
  chain: ChainPort,
  payer: TransactionSigner,
  staging: ProofStaging,
): Promise<void> {
  const [buffer, blockhash] = await Promise.all([
    chain.getAccount(staging.buffer.address),
    chain.getLatestBlockhash(),
  ]);
  if (buffer === null) return;
  await signTransaction({
    step: "close_contexts",
    feePayer: payer,
    blockhash,
    instructions: [staging.close],
  })
    .then((transaction) => submit(chain, transaction))
    .catch(() => undefined);
}
