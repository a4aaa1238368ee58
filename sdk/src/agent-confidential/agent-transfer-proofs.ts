/**
 * Everything an agent's confidential transfer carries, built locally from the agent's keys and the
 * chain state read just before (pure computation, no chain access):
 * - the Token-2022 transfer proofs (equality, ciphertext validity, range) exactly as a wallet's
 *   transfer (transfer-proofs.ts), with the agent's token account as source;
 * - the limit proofs against A, the amount's ciphertext read back out of the validity proof, so the
 *   prover uses the very bytes the program will read;
 * - the prover-state blobs the program stores: AE(total + a) for a spend counted on the policy's
 *   current day, AE(a) for the first spend of a new day (the program picks the one that applies).
 *
 * Execute or hold: the agent executes when `a <= min(per_transaction_limit, hitl_threshold)` and
 * asks for a hold (bound: the per-transaction limit) when the amount is above the HITL threshold or
 * when the caller asks for one. The program never sees `a`: it checks whichever bound the flag
 * selects, so the flag and the bound must agree (they do here).
 *
 * Every limit and the balance are checked before any proof work; a spend the program would refuse
 * sends nothing (`policy_limit_exceeded`, `insufficient_confidential_balance`, `invalid_amount`).
 */
import { assertAmount } from "../confidential/amounts";
import { ConfidentialError } from "../confidential/errors";
import { startTransferProofsOnPool } from "../confidential/pooled-transfer-proofs";
import { proofTask, runProofTask } from "../confidential/proof-pool";
import {
  buildTransferProofs,
  encryptTransferAmount,
  type TransferProofInput,
  type TransferProofs,
} from "../confidential/transfer-proofs";
import { policyLimitExceeded } from "./errors";
import { parseValidityProofContext, transferAmountCiphertext } from "./limit-ciphertexts";
import type { LimitProofTaskInput } from "./limit-proof-task";
import {
  type ForgedLimits,
  type LimitProofData,
  type LimitProofInput,
  type LimitProofs,
  type LimitStatements,
  limitStatements,
  limitValues,
  proveLimitStatements,
  unsafeForgedLimitInput,
  withStatements,
} from "./limit-proofs";
import type { ProverState } from "./prover-state";

/**
 * TEST ONLY: what a malicious client may claim — limits other than the policy's, and the
 * `request_hold` flag whatever the amount (e.g. execute above the HITL threshold).
 */
export interface ForgedTransfer extends ForgedLimits {
  readonly requestHold?: boolean;
}

/** A transfer's proof input, the sender being the agent's token account, and the policy's prover state. */
export interface AgentTransferProofInput extends TransferProofInput {
  readonly prover: ProverState;
  /** Ask for a hold even when the amount is within the HITL threshold. */
  readonly requestHold?: boolean;
  /** TEST ONLY: prove the limits against these values instead of the policy's (the program must refuse). */
  readonly unsafeForgedLimits?: ForgedTransfer;
}

export interface AgentTransferProofs {
  readonly transfer: TransferProofs;
  readonly limits: LimitProofs;
  /** True when the transfer asks the program to hold it for the owner. */
  readonly hold: boolean;
  /** AE(total + a): the prover state after this spend on the policy's current day. */
  readonly spendDecryptable: Uint8Array;
  /** AE(a): the prover state when this spend is the first of a new day. */
  readonly spendDecryptableNextDay: Uint8Array;
}

/** Whether the spend holds, and the bound m its per-transaction proof is made against. */
export function transferBound(
  prover: Pick<ProverState, "perTransactionLimit" | "hitlThreshold">,
  amount: bigint,
  requestHold: boolean,
): { readonly hold: boolean; readonly bound: bigint } {
  const hold = requestHold || amount > prover.hitlThreshold;
  // min(per_tx, hitl) on bigints (Math.min takes numbers only).
  let executable = prover.hitlThreshold;
  if (prover.perTransactionLimit < executable) executable = prover.perTransactionLimit;
  return { hold, bound: hold ? prover.perTransactionLimit : executable };
}

const LIMIT_PROOF_TASK = proofTask<LimitProofTaskInput, LimitProofData>(
  new URL("./limit-proof-task.ts", import.meta.url),
);

/** Everything checked and computed before proof work, shared by both builders. */
interface PreparedAgentTransfer {
  readonly hold: boolean;
  /** The limit statements about the amount's encryption, given its validity context. */
  readonly statements: (validityContext: Uint8Array) => LimitStatements;
  readonly newTotal: bigint;
}

/** The checks (a refused spend throws here, before any proof) and how to state the limits. */
function prepare(input: AgentTransferProofInput): PreparedAgentTransfer {
  const { amount, prover } = input;
  assertAmount(amount);
  const forged = input.unsafeForgedLimits;
  const honest = transferBound(prover, amount, input.requestHold ?? false);
  const hold = forged?.requestHold ?? honest.hold;
  const bound = forged?.requestHold === undefined ? honest.bound : transferBound(prover, 0n, hold).bound;
  const day = {
    dailyLimit: prover.dailyLimit,
    publicSpentToday: prover.publicSpentToday,
    spendCiphertext: prover.spendCiphertext,
    confidentialSpentToday: prover.confidentialSpentToday,
  };
  if (forged === undefined) limitValues({ amount, bound, day });
  const newTotal = prover.confidentialSpentToday + amount;
  if (newTotal >= 1n << 64n)
    throw policyLimitExceeded("daily", "today's confidential spend would exceed u64");
  if (input.availableBalance < amount) {
    throw new ConfidentialError(
      "insufficient_confidential_balance",
      "the available balance is smaller than the amount",
    );
  }

  const statements = (validityContext: Uint8Array): LimitStatements => {
    const limitInput: LimitProofInput = {
      keys: input.keys,
      // A, from the same bytes the validity proof (and so the program) will carry.
      amountCiphertext: transferAmountCiphertext(parseValidityProofContext(validityContext)),
      amount,
      bound,
      day,
    };
    return limitStatements(forged === undefined ? limitInput : unsafeForgedLimitInput(limitInput, forged));
  };
  return { hold, statements, newTotal };
}

function assemble(
  input: AgentTransferProofInput,
  prepared: PreparedAgentTransfer,
  transfer: TransferProofs,
  limits: LimitProofs,
): AgentTransferProofs {
  return {
    transfer,
    limits,
    hold: prepared.hold,
    spendDecryptable: input.keys.ae.encrypt(prepared.newTotal).toBytes(),
    spendDecryptableNextDay: input.keys.ae.encrypt(input.amount).toBytes(),
  };
}

/** Builds the agent transfer's proofs and blobs on this thread; throws before any proof work on a refused spend. */
export function buildAgentTransferProofs(input: AgentTransferProofInput): AgentTransferProofs {
  const prepared = prepare(input);
  const encryption = encryptTransferAmount(input);
  const statements = prepared.statements(encryption.validityContext);
  const transfer = buildTransferProofs(input, encryption);
  const limits = withStatements(statements, proveLimitStatements(input.keys.elgamal, statements));
  return assemble(input, prepared, transfer, limits);
}

/**
 * The same proofs made on the proof pool (proof-pool.ts): the Token-2022 proofs on one worker, the
 * limit proofs on another as soon as the first has encrypted the amount (they prove statements
 * about A, read from that encryption). This thread only checks, states the limits and assembles.
 * Rejects before any proof work on a refused spend, `proof_worker_failed` when a worker fails.
 */
export async function buildAgentTransferProofsConcurrently(
  input: AgentTransferProofInput,
): Promise<AgentTransferProofs> {
  const prepared = prepare(input);
  let limits: Promise<LimitProofs> | undefined;
  const transfer = startTransferProofsOnPool(input, (validityContext) => {
    limits = proveLimitsOnPool(input, () => prepared.statements(validityContext));
    // Observed here so a failure while the transfer proofs are awaited is never unhandled.
    limits.catch(() => undefined);
  });
  const transferProofs = await transfer;
  if (limits === undefined) throw new Error("the transfer proof task sent no validity context");
  return assemble(input, prepared, transferProofs, await limits);
}

/** The limit proofs on a pool worker; a statement that cannot be made rejects (never throws). */
async function proveLimitsOnPool(
  input: AgentTransferProofInput,
  state: () => LimitStatements,
): Promise<LimitProofs> {
  const statements = state();
  const data = await runProofTask(LIMIT_PROOF_TASK, {
    elgamalSecret: input.keys.elgamal.secret().toBytes(),
    statements,
  });
  return withStatements(statements, data);
}
