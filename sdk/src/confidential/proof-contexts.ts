/**
 * Runs an operation whose proofs are verified into ZK ElGamal proof context accounts before the
 * final instruction (transfer, withdraw) consumes them — and makes its failure harmless.
 *
 * Layout (sizes decide it, so it adapts to each proof):
 * - phase 1, submitted concurrently: one transaction per proof that fits with its account
 *   creation (CreateAccount + Verify*, e.g. equality 680 B, ciphertext validity 904 B); proofs
 *   that name the same `batch` share one transaction while it fits (two equality proofs: ~1,190 B);
 *   the CreateAccount of every proof too large for that (a range proof alone is ~1,200 B) rides
 *   along in the first of them with room for it;
 * - phase 2, concurrently: the Verify* of the large proofs into their accounts; a proof whose
 *   Verify alone exceeds the packet limit (a U128 range proof with an authority other than the
 *   payer: 1,239 B) is instead written into a staging buffer (proof-staging.ts), one Write each;
 * - final: the Verify of staged proofs (from the buffer, with a compute-unit limit for them), the
 *   operation's instruction(s), unless they close the contexts themselves (the agent-policy program
 *   does, as the contexts' authority) CloseContextState for every context, and the buffer's Close.
 * For a transfer that is 4 transactions, one fewer than Token-2022's plan helper (whose range
 * account gets its own transaction).
 *
 * The contexts' authority is the payer unless `authority` names another address (the agent PDA,
 * whose program consumes and closes them); then `authority.close` says how verified contexts are
 * closed after a failure.
 *
 * Failure before the final transaction moves nothing (only the final instruction moves funds), and
 * the final transaction is atomic. On any failure every context account this run created is
 * closed: verified ones by their authority; an allocated but unverified one (its Verify failed)
 * cannot be closed as such (it has no authority yet), so it is verified with its proof (the payer
 * as authority) and closed in one transaction. Accounts that still cannot be closed are reported as
 * `orphaned`; a staging buffer is closed too (best effort). The error names the failed step; a
 * retry builds fresh proofs and fresh accounts, so it is always safe.
 *
 * With a `submitter` (relayed-proof-contexts.ts) the same plan goes to a relay instead of the
 * cluster: the payer is the relay's fee payer (a kit NoopSigner) and signs nothing but its fee, the
 * staging buffer is the submitter's signer's, and a Write too large with that second signature is
 * split in parts (one more phase-2 transaction per split proof). A relay funds an account only in
 * the transaction that consumes it, so no context is created ahead of its Verify: a proof whose
 * CreateAccount and Verify do not fit one transaction is staged, and verified from the buffer in a
 * phase-3 transaction that also creates its context. Without one, nothing changes: the
 * cluster channel (proof-context-channel.ts) signs and sends exactly what this file always did.
 */
import { type Address, generateKeyPairSigner, type Instruction, type TransactionSigner } from "@solana/kit";
import { getSetComputeUnitLimitInstruction, MAX_COMPUTE_UNIT_LIMIT } from "@solana-program/compute-budget";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  getVerifyProofInstruction,
  ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
  type ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import type { ChainPort } from "../chain/chain-port";
import { DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT } from "../chain/compute-budget";
import { closeAt } from "./close-proof-contexts";
import { ConfidentialError, type ConfidentialStep } from "./errors";
import { clusterChannel, type PlannedContext, type ProofContextChannel } from "./proof-context-channel";
import { type ProofStaging, planProofStaging } from "./proof-staging";
import { type ProofContextSubmitter, relayChannel } from "./relayed-proof-contexts";
import { fitsPacket, type PreparedTransaction } from "./transactions";

/** A staged proof's Write is split in at most this many parts (a U128 proof needs 2 when relayed). */
const MAX_WRITE_PARTS = 4;

/** One proof to verify into a context account of `accountSize` bytes. */
export interface ContextProof {
  readonly step: ConfidentialStep;
  readonly instruction: ZkElGamalProofInstruction;
  readonly accountSize: number;
  readonly data: Uint8Array;
  /** Proofs naming the same batch share one phase-1 transaction while it fits. */
  readonly batch?: string;
}

/** Who owns the contexts when it is not the payer, and how they get closed. */
export interface ContextAuthority {
  readonly address: Address;
  /** True when the final instructions close every context themselves (no CloseContextState added). */
  readonly closedByFinalInstructions: boolean;
  /** Instructions closing verified contexts of this authority (rent to the payer), after a failure. */
  readonly close: (contexts: readonly Address[]) => Promise<Instruction[]>;
}

export interface ProofContextRun {
  readonly chain: ChainPort;
  /** Pays fees and rent and gets the rent back; the contexts' authority unless `authority` is given. */
  readonly payer: TransactionSigner;
  readonly authority?: ContextAuthority;
  readonly proofs: readonly ContextProof[];
  readonly finalStep: ConfidentialStep;
  /**
   * Submit through a relay instead of the cluster (see the file doc); `payer` is then the relay's
   * fee payer as a NoopSigner and `authority` must be given (the payer authorizes nothing).
   */
  readonly submitter?: ProofContextSubmitter;
  /** TEST ONLY: runs after the proofs are verified, just before the final transaction is sent. */
  readonly beforeFinal?: () => void | Promise<void>;
  /** The final instructions, given each proof step's context account address. */
  readonly finalInstructions: (
    contexts: ReadonlyMap<ConfidentialStep, Address>,
  ) => Instruction[] | Promise<Instruction[]>;
}

/** Submits the proofs and the final instructions; returns every signature, in submission order. */
export async function runWithProofContexts(run: ProofContextRun): Promise<{ readonly signatures: string[] }> {
  const authority = run.authority ?? payerAuthority(run.payer);
  if (run.submitter === undefined)
    return runOver(run, authority, clusterChannel(run.chain, run.payer, authority));
  if (run.authority === undefined) {
    throw new Error("a relayed run needs a context authority other than the payer (it only pays)");
  }
  return runOver(run, authority, relayChannel(run.chain, run.payer, authority, run.submitter));
}

async function runOver<T extends PreparedTransaction>(
  run: ProofContextRun,
  authority: ContextAuthority,
  channel: ProofContextChannel<T>,
): Promise<{ readonly signatures: string[] }> {
  const { chain, payer } = run;
  // A relay funds an account only in the transaction that consumes it (verified into, for the
  // agent): no context is created ahead of its verify, so staged proofs are verified from the
  // buffer in a transaction that creates their context, after the Writes.
  const consumeWhereCreated = run.submitter !== undefined;
  const planned: PlannedContext[] = await Promise.all(
    run.proofs.map(async (proof) => ({ ...proof, account: await generateKeyPairSigner() })),
  );
  const sizes = [...new Set(planned.map((context) => context.accountSize))];
  const [blockhash, rents] = await Promise.all([
    channel.latestBlockhash(),
    Promise.all(sizes.map((size) => chain.minimumBalanceForRentExemption(size))),
  ]);
  const rentOf = new Map(sizes.map((size, index) => [size, rents[index] as bigint] as const));
  const sign = (step: ConfidentialStep, instructions: Instruction[]) =>
    channel.sign(step, instructions, blockhash);
  // Both channels sign with `payer` as fee payer and no other extra signer, so a plan's candidate
  // is sized unsigned: signing it would have the payer sign (and a metered payer count) it.
  const fits = (step: ConfidentialStep, instructions: Instruction[]) =>
    fitsPacket({ step, feePayer: payer, blockhash, instructions });
  const create = (context: PlannedContext) =>
    getCreateAccountInstruction({
      payer,
      newAccount: context.account,
      lamports: rentOf.get(context.accountSize) as bigint,
      space: context.accountSize,
      programAddress: ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
    });

  const inline: { step: ConfidentialStep; batch: string | undefined; instructions: Instruction[] }[] = [];
  const split: PlannedContext[] = [];
  const staged: PlannedContext[] = [];
  for (const context of planned) {
    const own = [create(context), verifyInto(context, authority.address)];
    const shared = context.batch === undefined ? undefined : inline.find((tx) => tx.batch === context.batch);
    if (shared !== undefined && fits(shared.step, [...shared.instructions, ...own])) {
      shared.instructions.push(...own);
    } else if (fits(context.step, own)) {
      inline.push({ step: context.step, batch: context.batch, instructions: own });
    } else if (!consumeWhereCreated && fits(context.step, [verifyInto(context, authority.address)])) {
      split.push(context);
    } else staged.push(context);
  }
  if (inline.length === 0) throw new Error("at least one proof must fit with its account creation");
  const staging =
    staged.length === 0
      ? null
      : await planProofStaging(
          chain,
          payer,
          await generateKeyPairSigner(),
          staged.map((context) => ({ ...context, contextState: context.account.address })),
          channel.bufferAuthority,
        );
  // Account creations ride along in the first phase-1 transaction with room for them.
  const riders = [
    ...[...split, ...(consumeWhereCreated ? [] : staged)].map((context) => ({
      step: context.step,
      instructions: [create(context)],
    })),
    ...(staging === null ? [] : [{ step: staged[0]?.step ?? run.finalStep, instructions: staging.create }]),
  ];
  for (const rider of riders) {
    const host = inline.find((tx) => fits(tx.step, [...tx.instructions, ...rider.instructions]));
    if (host === undefined) throw new Error(`no phase-1 transaction has room for the ${rider.step} account`);
    host.instructions.push(...rider.instructions);
  }

  const writes = staging === null ? [] : stagedWrites(staging, staged, fits);
  const phase1 = await Promise.all(inline.map((tx) => sign(tx.step, tx.instructions)));
  const phase2 = await Promise.all([
    ...split.map((context) => sign(context.step, [verifyInto(context, authority.address)])),
    ...writes.map((write) => sign(write.step, [write.instruction])),
  ]);
  const stagedVerifies = staging === null ? [] : staging.verifies(authority.address);
  const phase3 = consumeWhereCreated
    ? await Promise.all(
        staged.map((context, i) =>
          sign(context.step, [computeUnitLimit(1), create(context), ...stagedVerifies.slice(i, i + 1)]),
        ),
      )
    : [];
  const addresses = new Map(planned.map((context) => [context.step, context.account.address] as const));
  const final = await sign(run.finalStep, [
    // Staged proofs are verified first: the final instructions read their contexts.
    ...(staging === null || consumeWhereCreated ? [] : [computeUnitLimit(staged.length), ...stagedVerifies]),
    ...(await run.finalInstructions(addresses)),
    ...(authority.closedByFinalInstructions ? [] : planned.map((context) => close(context, payer))),
    ...(staging === null ? [] : [staging.close]),
  ]);

  const signatures: string[] = [];
  try {
    signatures.push(...(await channel.submitConcurrently(phase1)));
    signatures.push(...(await channel.submitConcurrently(phase2)));
    if (phase3.length > 0) signatures.push(...(await channel.submitConcurrently(phase3)));
    await run.beforeFinal?.();
    signatures.push(await channel.submitFinal(final));
    return { signatures };
  } catch (failure) {
    const contexts = await channel.cleanUp(planned, staging);
    // A final transaction whose submission errored may still have landed (e.g. a timeout over RPC):
    // then the closes above found its contexts already gone, and the funds did move.
    const landed = await channel.finalLanded(final, planned);
    if (landed !== null) return { signatures: [...signatures, landed] };
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

/** Each staged proof's Write, in as few parts as each fit a transaction of their own (plan order). */
function stagedWrites(
  staging: ProofStaging,
  staged: readonly PlannedContext[],
  fits: (step: ConfidentialStep, instructions: Instruction[]) => boolean,
): { readonly step: ConfidentialStep; readonly instruction: Instruction }[] {
  const writes: { step: ConfidentialStep; instruction: Instruction }[] = [];
  for (const [index, context] of staged.entries()) {
    let parts: Instruction[] | undefined;
    for (let chunks = 1; parts === undefined && chunks <= MAX_WRITE_PARTS; chunks++) {
      const candidate = staging.writes(index, chunks);
      if (candidate.every((part) => fits(context.step, [part]))) parts = candidate;
    }
    if (parts === undefined)
      throw new Error(`the ${context.step} proof does not fit ${MAX_WRITE_PARTS} Writes`);
    writes.push(...parts.map((instruction) => ({ step: context.step, instruction })));
  }
  return writes;
}

/**
 * A transaction's compute budget defaults to 200k per instruction, and a staged U128 verify alone
 * consumes 200k: the final transaction asks for room for each staged verify plus its own work.
 */
function computeUnitLimit(stagedVerifies: number): Instruction {
  const units = (stagedVerifies + 2) * Number(DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT);
  return getSetComputeUnitLimitInstruction({ units: Math.min(MAX_COMPUTE_UNIT_LIMIT, units) });
}

/** The default: the payer owns the contexts and closes them with CloseContextState. */
function payerAuthority(payer: TransactionSigner): ContextAuthority {
  return {
    address: payer.address,
    closedByFinalInstructions: false,
    close: async (contexts) => contexts.map((contextAddress) => closeAt(contextAddress, payer)),
  };
}

function verifyInto(context: PlannedContext, authority: Address): Instruction {
  return getVerifyProofInstruction({
    discriminator: context.instruction,
    contextState: context.account.address,
    contextStateAuthority: authority,
    proofData: context.data,
  });
}

function close(context: PlannedContext, payer: TransactionSigner): Instruction {
  return closeAt(context.account.address, payer);
}
