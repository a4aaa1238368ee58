/**
 * The one verifier of x402 `exact` payments on Solana, following `@x402/svm`'s facilitator rule by
 * rule (the reasons are its own: x402-refusal.ts), for every shape of payment the facilitator
 * accepts (payment-shapes.ts):
 *
 * 1. the protocol: x402 v2, scheme `exact` on both sides, the payload's network the requirement's
 *    and one this facilitator settles on, `extra.feePayer` present and the fee reserve's;
 * 2. the transaction (payment-transaction.ts): decodes, the fee reserve at account 0, every other
 *    signer's signature valid, no lookup tables;
 * 3. its layout (payment-layout.ts): the fee payer in no instruction, compute limit and price first
 *    and within the shape's caps, the transfer, only Memo/Lighthouse after it, the memo asked for;
 * 4. its transfer (paying-transfer.ts): exactly one, of the asset, to `payTo`'s token account, of
 *    the amount — read from the instruction, or from what its simulation invoked;
 * 5. a simulation at the cluster's newest state without signature checks (the fee payer has not
 *    signed yet), which also refuses a transaction already processed or an expired blockhash.
 *
 * Whether the payment was settled before is asked right after step 2, of the settlement records
 * (`refuseSettled`, settlement-claims.ts): the chain's memory of processed transactions is short
 * (its simulation's `AlreadyProcessed` backs it up), the database's is not.
 */
import type { ChainPort } from "@cpay/sdk/chain";
import { payingTransfer } from "./paying-transfer";
import { checkLayout } from "./payment-layout";
import type { PaymentShape } from "./payment-shapes";
import { type PaymentTransaction, readPaymentTransaction } from "./payment-transaction";
import { innerTransfersOf, type TokenTransfer, tokenTransferOf } from "./token-transfers";
import type { TX402Payload, TX402Requirements } from "./x402-contracts";
import { X402_REASONS, X402Refusal } from "./x402-refusal";

/** What verifying needs: the cluster, the fee reserve's address, the networks settled on. */
export interface VerifyContext {
  /** Only cpay's program id and a simulation are read. */
  readonly chain: Pick<ChainPort, "programId" | "simulateTransaction">;
  readonly feePayer: string;
  readonly networks: readonly string[];
  /** Throws X402Refusal when the payment was settled before (checked before anything runs). */
  readonly refuseSettled: (transaction: PaymentTransaction) => Promise<void>;
}

/** A payment that passed every rule: its transaction, shape and the transfer that pays. */
export interface VerifiedPayment {
  readonly transaction: PaymentTransaction;
  readonly shape: PaymentShape;
  readonly transfer: TokenTransfer;
  /** Who pays: the transfer's authority (a wallet, or an agent's PDA). */
  readonly payer: string;
}

/** Verifies `payload` against `requirements` (see the module doc), or throws X402Refusal. */
export async function verifyPayment(
  ctx: VerifyContext,
  payload: TX402Payload,
  requirements: TX402Requirements,
): Promise<VerifiedPayment> {
  if (payload.x402Version !== 2) {
    throw new X402Refusal(
      X402_REASONS.unsupportedVersion,
      `x402Version ${payload.x402Version}; this facilitator speaks x402 v2`,
    );
  }
  if (payload.accepted.scheme !== "exact" || requirements.scheme !== "exact") {
    throw new X402Refusal(X402_REASONS.unsupportedScheme, "this facilitator settles the `exact` scheme only");
  }
  if (payload.accepted.network !== requirements.network || !ctx.networks.includes(requirements.network)) {
    throw new X402Refusal(
      X402_REASONS.networkMismatch,
      `the payment is for ${payload.accepted.network} and the requirement for ${requirements.network}; this facilitator settles on ${ctx.networks.join(", ")}`,
    );
  }
  const feePayer = requirements.extra?.feePayer;
  if (typeof feePayer !== "string" || feePayer === "") {
    throw new X402Refusal(
      X402_REASONS.missingFeePayer,
      "the requirement has no extra.feePayer (GET /supported names it)",
    );
  }
  if (feePayer !== ctx.feePayer) {
    throw new X402Refusal(
      X402_REASONS.feePayerNotManaged,
      `extra.feePayer is ${feePayer}; this facilitator's fee payer is ${ctx.feePayer}`,
    );
  }
  const memo = requirements.extra?.memo;
  const transaction = await readPaymentTransaction(payload.payload.transaction, feePayer);
  await ctx.refuseSettled(transaction);
  const shape = checkLayout(
    transaction,
    { feePayer, programId: ctx.chain.programId },
    typeof memo === "string" && memo !== "" ? memo : undefined,
  );
  const topLevel = transaction.instructions.flatMap((ix) => tokenTransferOf(ix) ?? []);
  let transfer: TokenTransfer;
  if (shape.transferIn === "instruction") {
    transfer = await payingTransfer(topLevel, requirements, shape, feePayer);
    await simulate(ctx.chain, transaction, shape, transfer.authority, false);
  } else {
    const simulated = await simulate(ctx.chain, transaction, shape, "", true);
    const keys = simulated.accountKeys ?? (transaction.message.staticAccounts as readonly string[]);
    const invoked = innerTransfersOf(simulated.innerInstructions ?? [], keys);
    transfer = await payingTransfer([...topLevel, ...invoked], requirements, shape, feePayer);
  }
  return { transaction, shape, transfer, payer: transfer.authority };
}

async function simulate(
  chain: VerifyContext["chain"],
  transaction: PaymentTransaction,
  shape: PaymentShape,
  payer: string,
  innerInstructions: boolean,
) {
  let simulated: Awaited<ReturnType<ChainPort["simulateTransaction"]>>;
  try {
    simulated = await chain.simulateTransaction(transaction.wire, { sigVerify: false, innerInstructions });
  } catch (error) {
    throw new X402Refusal(
      shape.simulationRefusal,
      `the cluster refused to simulate it: ${(error as Error).message}`,
      payer,
    );
  }
  if (simulated.err !== null) {
    const logs = simulated.logs.slice(-3).join(" | ");
    throw new X402Refusal(
      shape.simulationRefusal,
      `the transaction fails in simulation: ${JSON.stringify(simulated.err)}${logs === "" ? "" : ` (${logs})`}`,
      payer,
    );
  }
  return simulated;
}
