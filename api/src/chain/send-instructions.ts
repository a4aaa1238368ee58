/**
 * Signs instructions with the fee reserve as fee payer (plus the signers their account metas
 * carry) — reserving the most the transaction can cost it against the scope's account first
 * (reserve/reserve-scope.ts: `429 reserve_budget_exhausted`, nothing signed) — submits them to
 * the cluster with preflight, and waits for its signature status (sending does not mean landing).
 * A refusal by the agent-policy program comes back as `ProgramRefusal` with the program's error
 * (code, name); every other failure as `ChainFailure`. Nothing is logged here: callers decide what
 * a failure means for the request.
 */
import { getAgentPolicyErrorFromTransactionError } from "@cpay/sdk";
import {
  awaitLanding,
  SubmissionRejected,
  signTransactionToWire,
  type TransactionErrorJson,
  TransactionExpired,
} from "@cpay/sdk/chain";
import { type Address, address, type Instruction } from "@solana/kit";
import type { ServiceContext } from "../core/service-context";
import { reservePayer } from "../reserve/reserve-scope";

export class ChainFailure extends Error {
  override readonly name: string = "ChainFailure";
  constructor(
    message: string,
    readonly err: TransactionErrorJson | null,
  ) {
    super(message);
  }
}

/**
 * The transaction can never land (its blockhash expired first, or the cluster did not know it):
 * nothing of it moved, and the same instructions may be signed again with a fresh blockhash.
 */
export class ExpiredBeforeLanding extends ChainFailure {
  override readonly name = "ExpiredBeforeLanding";
  constructor(message: string, options: { readonly cause?: unknown } = {}) {
    super(message, null);
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/** The agent-policy program refused the transaction (a policy rule, a state check). */
export class ProgramRefusal extends ChainFailure {
  override readonly name = "ProgramRefusal";
  constructor(
    readonly programError: { readonly code: number; readonly name: string; readonly message: string },
    err: TransactionErrorJson,
  ) {
    super(`the program refused: ${programError.name}`, err);
  }
}

/** Sends `instructions` as one transaction paid by the fee reserve; resolves to its signature. */
export async function sendInstructions(
  service: ServiceContext,
  instructions: readonly Instruction[],
): Promise<string> {
  const { blockhash, lastValidBlockHeight } = await service.chain.getLatestBlockhash();
  const { signature, wire } = await signTransactionToWire({
    feePayer: reservePayer(service),
    instructions,
    blockhash,
    lastValidBlockHeight,
  });
  try {
    await service.chain.sendTransaction(wire, { preflight: true });
  } catch (error) {
    if (error instanceof SubmissionRejected && error.kind === "blockhash_not_found") {
      throw new ExpiredBeforeLanding("the cluster did not know the transaction's blockhash", {
        cause: error,
      });
    }
    if (error instanceof SubmissionRejected && error.kind !== "already_processed") {
      throw failureOf(service, error.outcome?.err ?? null, instructions, `rejected (${error.kind})`);
    }
    if (!(error instanceof SubmissionRejected)) throw error;
  }
  const status = await awaitLanding(service.chain, signature, blockhash, { wire });
  if (status === null) {
    throw new ExpiredBeforeLanding("the transaction did not land before its blockhash expired", {
      cause: new TransactionExpired(signature, lastValidBlockHeight),
    });
  }
  if (status.err !== null) throw failureOf(service, status.err, instructions, "failed");
  return signature;
}

function failureOf(
  service: ServiceContext,
  err: TransactionErrorJson | null,
  instructions: readonly Instruction[],
  what: string,
): ChainFailure {
  const refusal =
    err === null
      ? null
      : programRefusalOf(
          err,
          instructions.map((instruction) => instruction.programAddress),
          address(service.chain.programId),
        );
  return (
    refusal ??
    new ChainFailure(`the transaction ${what}${err === null ? "" : `: ${JSON.stringify(err)}`}`, err)
  );
}

/**
 * The agent-policy program's refusal behind a transaction error, given the program of each of the
 * transaction's instructions in order (the error names an instruction index) and the environment's
 * agent-policy program; null when the error is not that program's.
 */
export function programRefusalOf(
  err: TransactionErrorJson,
  programAddresses: readonly Address[],
  programAddress: Address,
): ProgramRefusal | null {
  const programError = getAgentPolicyErrorFromTransactionError(err, {
    instructionProgramAddresses: [...programAddresses],
    programAddress,
  });
  if (programError === null) return null;
  return new ProgramRefusal(
    { code: Number(programError.code), name: programError.name, message: programError.message },
    err,
  );
}
