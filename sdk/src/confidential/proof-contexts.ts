/**
 * Runs an operation whose proofs are verified into ZK ElGamal proof context accounts before the
 * final instruction (transfer, withdraw) consumes them — and makes its failure harmless.
 *
 * Layout (sizes decide it, so it adapts to each proof):
 * - phase 1, submitted concurrently: one transaction per proof that fits with its account
 *   creation (CreateAccount + Verify*, e.g. equality 680 B, ciphertext validity 904 B); the
 *   CreateAccount of every proof too large for that (the U128 range proof alone is 1207 B) rides
 *   along in the first of them;
 * - phase 2, concurrently: the Verify* of the large proofs into their accounts;
 * - final: the operation's instruction(s) and CloseContextState for every context, atomically.
 * For a transfer that is 4 transactions, one fewer than Token-2022's plan helper (whose range
 * account gets its own transaction).
 *
 * Failure before the final transaction moves nothing (only the final instruction moves funds), and
 * the final transaction is atomic. On any failure every context account this run created is
 * closed: verified ones with CloseContextState; an allocated but unverified one (its Verify failed)
 * cannot be closed as such (it has no authority yet), so it is verified with its proof and closed
 * in one transaction. Accounts that still cannot be closed are reported as `orphaned`. The error
 * names the failed step; a retry builds fresh proofs and fresh accounts, so it is always safe.
 */
import {
  type Address,
  generateKeyPairSigner,
  type Instruction,
  type KeyPairSigner,
  type TransactionSigner,
} from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  getVerifyProofInstruction,
  ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
  type ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import type { ClusterPort } from "../cluster/cluster-port";
import { closeAt, closeContexts } from "./close-proof-contexts";
import { ConfidentialError, type ConfidentialStep, type ContextAccountOutcome } from "./errors";
import { landedStatus, type SignedTransaction, signTransaction, submit } from "./transactions";

/** One proof to verify into a context account of `accountSize` bytes. */
export interface ContextProof {
  readonly step: ConfidentialStep;
  readonly instruction: ZkElGamalProofInstruction;
  readonly accountSize: number;
  readonly data: Uint8Array;
}

export interface ProofContextRun {
  readonly cluster: ClusterPort;
  /** Pays fees and rent, is the contexts' authority, gets the rent back. */
  readonly payer: TransactionSigner;
  readonly proofs: readonly ContextProof[];
  readonly finalStep: ConfidentialStep;
  /** The final instructions, given each proof step's context account address. */
  readonly finalInstructions: (contexts: ReadonlyMap<ConfidentialStep, Address>) => Instruction[];
}

interface PlannedContext extends ContextProof {
  readonly account: KeyPairSigner;
}

/** Submits the proofs and the final instructions; returns every signature, in submission order. */
export async function runWithProofContexts(run: ProofContextRun): Promise<{ readonly signatures: string[] }> {
  const { cluster, payer } = run;
  const planned: PlannedContext[] = await Promise.all(
    run.proofs.map(async (proof) => ({ ...proof, account: await generateKeyPairSigner() })),
  );
  const blockhash = cluster.getLatestBlockhash();
  const sign = (step: ConfidentialStep, instructions: Instruction[]) =>
    signTransaction({ step, feePayer: payer, blockhash, instructions });
  const create = (context: PlannedContext) =>
    getCreateAccountInstruction({
      payer,
      newAccount: context.account,
      lamports: cluster.minimumBalanceForRentExemption(context.accountSize),
      space: context.accountSize,
      programAddress: ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
    });

  const inline: { context: PlannedContext; instructions: Instruction[] }[] = [];
  const split: PlannedContext[] = [];
  for (const context of planned) {
    const instructions = [create(context), verifyInto(context, payer)];
    if (await fits(() => sign(context.step, instructions))) inline.push({ context, instructions });
    else split.push(context);
  }
  const [first] = inline;
  if (first === undefined) throw new Error("at least one proof must fit with its account creation");
  first.instructions.push(...split.map(create));

  const phase1 = await Promise.all(
    inline.map(({ context, instructions }) => sign(context.step, instructions)),
  );
  const phase2 = await Promise.all(split.map((context) => sign(context.step, [verifyInto(context, payer)])));
  const addresses = new Map(planned.map((context) => [context.step, context.account.address] as const));
  const final = await sign(run.finalStep, [
    ...run.finalInstructions(addresses),
    ...planned.map((context) => close(context, payer)),
  ]);

  const signatures: string[] = [];
  try {
    signatures.push(...(await submitConcurrently(cluster, phase1)));
    signatures.push(...(await submitConcurrently(cluster, phase2)));
    signatures.push(await submitFinal(cluster, final));
    return { signatures };
  } catch (failure) {
    const contexts = await closeLeftovers(cluster, payer, planned);
    // A final transaction whose submission errored may still have landed (e.g. a timeout over RPC):
    // then the closes above found its contexts already gone, and the funds did move.
    if (landedStatus(cluster, final.signature) === "succeeded") {
      return { signatures: [...signatures, final.signature] };
    }
    if (failure instanceof ConfidentialError) {
      throw new ConfidentialError(failure.code, `${failure.message}; nothing moved`, {
        step: failure.step ?? run.finalStep,
        contexts,
        cause: failure.cause,
      });
    }
    throw failure;
  }
}

function verifyInto(context: PlannedContext, payer: TransactionSigner): Instruction {
  return getVerifyProofInstruction({
    discriminator: context.instruction,
    contextState: context.account.address,
    contextStateAuthority: payer.address,
    proofData: context.data,
  });
}

function close(context: PlannedContext, payer: TransactionSigner): Instruction {
  return closeAt(context.account.address, payer);
}

async function fits(build: () => Promise<SignedTransaction>): Promise<boolean> {
  try {
    await build();
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/** Submits all, waits for all; throws the first failure (in plan order) once every one settled. */
async function submitConcurrently(cluster: ClusterPort, transactions: readonly SignedTransaction[]) {
  const results = await Promise.allSettled(transactions.map((transaction) => submit(cluster, transaction)));
  const failed = results.find((result) => result.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<string>).value);
}

/** The final transaction, counted as done if it landed even though its submission reported an error. */
async function submitFinal(cluster: ClusterPort, final: SignedTransaction): Promise<string> {
  try {
    return await submit(cluster, final);
  } catch (error) {
    if (landedStatus(cluster, final.signature) === "succeeded") return final.signature;
    throw error;
  }
}

/** Closes every context account of `planned` that exists; reports each one's fate. */
async function closeLeftovers(
  cluster: ClusterPort,
  payer: TransactionSigner,
  planned: readonly PlannedContext[],
): Promise<ContextAccountOutcome[]> {
  const created = planned.filter((context) => cluster.getAccount(context.account.address) !== null);
  await closeContexts(
    cluster,
    payer,
    created.map((context) => ({ address: context.account.address, initializeWith: context })),
  );
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
