/**
 * A proof-context run submitted through a relay (proof-context-channel.ts): the payer is the relay's
 * fee payer as a kit `NoopSigner`, so every transaction leaves its fee payer's signature slot empty
 * and the relay co-signs it as fee payer and submits it. The fee payer must never be needed as an
 * authority (a relay refuses to sign as one): it only pays fees and rent and gets rent back.
 *
 * What differs from the cluster channel:
 * - the staging buffer's authority is `submitter.signer` (the agent signer), not the payer;
 * - a transaction's id is the fee payer's signature, unknown until the relay signed: a final
 *   transaction whose submission errored is looked up by its message bytes among the transactions
 *   of its context accounts, to tell whether it landed after all;
 * - clean-up closes verified contexts through their authority (`ContextAuthority.close`, e.g.
 *   `agent_confidential_close_contexts` signed by the agent signer, rent to the fee payer) and the
 *   staging buffer (signed by its authority); an allocated but unverified context cannot be closed
 *   without verifying into it under the payer's authority, so it is reported `orphaned` — its rent
 *   is the fee payer's, which can recover it itself (`closeProofContexts`).
 */
import { type Address, getTransactionDecoder, type Instruction, type TransactionSigner } from "@solana/kit";
import { ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS } from "@solana-program/zk-elgamal-proof";
import type { ChainPort } from "../chain/chain-port";
import type { AccountRecord } from "../chain/chain-types";
import { confirmedTransaction } from "../chain/confirmed-transaction";
import { sameBytes } from "./account-setup";
import { ConfidentialError, type ConfidentialStep } from "./errors";
import { type Blockhash, contextOutcomes, type ProofContextChannel } from "./proof-context-channel";
import type { ContextAuthority } from "./proof-contexts";
import { type PreparedTransaction, partiallySignTransaction } from "./transactions";

/** Sends a run's transactions to a relay that co-signs them as fee payer. */
export interface ProofContextSubmitter {
  /**
   * Submits `wires` (fee payer's signature slot empty) in order, each landed before the next;
   * resolves with their signatures; rejects when one is refused or fails.
   */
  readonly submit: (wires: readonly Uint8Array[]) => Promise<readonly string[]>;
  /** Signs in the payer's stead where an authority must sign (the staging buffer's Writes and Close). */
  readonly signer: TransactionSigner;
  /** A recent blockhash (default: the cluster's latest). */
  readonly latestBlockhash?: () => Promise<Blockhash>;
}

/** How many recent transactions of each context account are compared with a final transaction. */
const LANDED_LOOKUP_LIMIT = 10;

/** The relay channel (see the file doc); `payer` is the relay's fee payer (a NoopSigner). */
export function relayChannel(
  chain: ChainPort,
  payer: TransactionSigner,
  authority: ContextAuthority,
  submitter: ProofContextSubmitter,
): ProofContextChannel<PreparedTransaction> {
  const submitOne = async (transaction: PreparedTransaction): Promise<string> => {
    try {
      const [signature] = await submitter.submit([transaction.wire]);
      if (signature === undefined) throw new Error("the relay returned no signature");
      return signature;
    } catch (error) {
      throw relayRefused(transaction.step, error);
    }
  };
  const latestBlockhash = async () => submitter.latestBlockhash?.() ?? chain.getLatestBlockhash();
  // Clean-up transactions are signed later than the plan: with a fresh blockhash.
  const signNow = async (step: ConfidentialStep, instructions: readonly Instruction[]) =>
    partiallySignTransaction({ step, feePayer: payer, blockhash: await latestBlockhash(), instructions });

  return {
    bufferAuthority: submitter.signer,
    latestBlockhash,
    sign: (step, instructions, recent) =>
      partiallySignTransaction({ step, feePayer: payer, blockhash: recent, instructions }),
    async submitConcurrently(transactions) {
      const results = await Promise.allSettled(transactions.map(submitOne));
      const failed = results.find((result) => result.status === "rejected");
      if (failed !== undefined) throw failed.reason;
      return results.map((result) => (result as PromiseFulfilledResult<string>).value);
    },
    // A final transaction whose submission errored is looked up after clean-up (`finalLanded`).
    submitFinal: submitOne,
    async cleanUp(planned, staging) {
      const [accounts, buffer] = await Promise.all([
        chain.getMultipleAccounts(planned.map((context) => context.account.address)),
        staging === null ? null : chain.getAccount(staging.buffer.address),
      ]);
      const created = planned.filter((_, index) => accounts[index] !== null);
      const verified = planned
        .filter((_, index) => isVerifiedContext(accounts[index] ?? null))
        .map((context) => context.account.address);
      const attempts: Promise<unknown>[] = [];
      if (verified.length > 0) {
        attempts.push(
          authority
            .close(verified)
            .then((instructions) => signNow("close_contexts", instructions))
            .then(submitOne),
        );
      }
      if (staging !== null && buffer !== null) {
        attempts.push(signNow("close_contexts", [staging.close]).then(submitOne));
      }
      await Promise.allSettled(attempts);
      return contextOutcomes(chain, planned, created);
    },
    finalLanded: async (final, planned) =>
      findLandedByMessage(
        chain,
        final.wire,
        planned.map((context) => context.account.address),
      ),
  };
}

/** A verified context starts with its 32-byte authority; an allocated but unverified one is zeroes. */
function isVerifiedContext(account: AccountRecord | null): boolean {
  return (
    account !== null &&
    account.owner === ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS &&
    account.data.subarray(0, 32).some((byte) => byte !== 0)
  );
}

/**
 * The signature of a successfully landed transaction with the same message as `wire` (so the same
 * transaction, whoever signed it), found among the recent transactions of `accounts`; else null.
 */
async function findLandedByMessage(
  chain: ChainPort,
  wire: Uint8Array,
  accounts: readonly Address[],
): Promise<string | null> {
  const message = messageBytes(wire);
  const seen = new Set<string>();
  const histories = await Promise.all(
    accounts.map((account) => chain.getSignaturesForAddress(account, { limit: LANDED_LOOKUP_LIMIT })),
  );
  const candidates: string[] = [];
  for (const info of histories.flat()) {
    if (info.err !== null || seen.has(info.signature)) continue;
    seen.add(info.signature);
    candidates.push(info.signature);
  }
  // A transaction landed moments ago is readable once confirmed: wait for it rather than miss it.
  const landed = await Promise.all(candidates.map((signature) => confirmedTransaction(chain, signature)));
  const match = landed.find((record) => record !== null && sameBytes(messageBytes(record.wire), message));
  return match?.signature ?? null;
}

function messageBytes(wire: Uint8Array): Uint8Array {
  return new Uint8Array(getTransactionDecoder().decode(wire).messageBytes);
}

function relayRefused(step: ConfidentialStep, error: unknown): ConfidentialError {
  const detail = error instanceof Error ? error.message : String(error);
  return new ConfidentialError("step_failed", `${step} was refused by the relay: ${detail}`, {
    step,
    cause: error,
  });
}
