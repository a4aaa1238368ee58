/**
 * `POST /v1/relay`: a self-custody agent's signed transactions, paid by the fee reserve.
 *
 * 1. Per-agent rate limit (`RELAY_RATE_LIMIT_PER_MINUTE`, beside the per-key limit), then the
 *    owner's identity verification (`403 kyc_required`), as for the service's own transfers.
 * 2. Every transaction is checked BEFORE anything is signed (check-relayed-transaction.ts): the fee
 *    payer used for fees and rent only, only the allowed programs and instructions, the agent's own
 *    PDA and signer, no extra signer, a `transfer_record` only beside the agent's own
 *    `agent_transfer` of the same id (checks/transfer-record.ts). One refusal refuses the request: `422
 *    relay_transaction_refused` naming `transactions[i]` and why; nothing is signed.
 * 3. The fees are reserved against the agent's daily cap (fee-budget.ts), or `429`.
 * 4. In order, each transaction is simulated (the program's refusals are the program's: `422
 *    policy_violation` naming the rule, exactly as for the service's own agent transfers), co-signed
 *    by the fee payer and submitted; a later one is checked against the state the earlier ones left.
 * 5. Every transfer the request carries (relayed-intent.ts) gets its row before submission, and
 *    `submitted`/`held` as soon as its own transaction landed (relayed-transfer-row.ts), exactly as
 *    the API's own agent transfers; a refused transaction fails its transfers and every later
 *    one's (never initiated); the indexer confirms them. A confidential one's usage increment is
 *    read from its validity context just before its transaction goes out (relayed-usage.ts). The
 *    answer: every signature, and the request's first transfer.
 */

import type { TRelayResponse, TTransfer } from "@cpay/sdk/api";
import { SubmissionRejected, type TransactionErrorJson } from "@cpay/sdk/cluster";
import { type Address, getBase64Encoder } from "@solana/kit";
import type { Response } from "express";
import { requireKyc } from "../accounts/require-kyc";
import { programRefusalOf } from "../chain/send-instructions";
import type { AccountRow, TransferRow } from "../db/rows";
import { ApiError } from "../http/api-error";
import { createRateLimiter, type RateLimiter } from "../http/rate-limit";
import type { ServiceContext } from "../service-context";
import { policyRefusalOf } from "../transfers/policy-refusal";
import { checkRelayedTransaction } from "./check-relayed-transaction";
import type { RelayedInstruction } from "./checks/verdict";
import { coSignAsFeePayer } from "./co-sign";
import { chargeRelaySpend, reserveRelayFees } from "./fee-budget";
import { relayedIntentsOf } from "./relayed-intent";
import {
  recordRelayedIntents,
  recordRelayedOutcome,
  recordRelayedRefusal,
  refuseRepeatedIds,
} from "./relayed-transfer-row";
import { recordConfidentialUsage } from "./relayed-usage";

const limiters = new WeakMap<ServiceContext, RateLimiter>();

export async function relayTransactions(
  service: ServiceContext,
  caller: { readonly account: AccountRow; readonly apiKeyId: string },
  transactions: readonly string[],
  response: Response,
): Promise<TRelayResponse> {
  const { account: agent, apiKeyId } = caller;
  relayLimiter(service).take(`relay:${agent.id}`, response);
  if (agent.agentSigner === null)
    throw new ApiError("agent_key_required", "this key's account has no agent signer");
  // The relay moves the agent's funds: the same gate as POST /v1/transfers (its owner's status).
  await requireKyc(service, agent);
  const wires = transactions.map((text) => new Uint8Array(getBase64Encoder().encode(text)));
  let fees = 0n;
  const checked: (readonly RelayedInstruction[])[] = [];
  for (const [index, wire] of wires.entries()) {
    const check = checkRelayedTransaction(wire, {
      feePayer: service.feePayer.address,
      programId: service.cluster.programId,
      usdgMint: service.cluster.usdgMint,
      agent: { pda: agent.publicKey, signer: agent.agentSigner },
      rentExemptMinimum: (space: number) => service.cluster.minimumBalanceForRentExemption(space),
    });
    if (!check.ok) {
      throw new ApiError(
        "relay_transaction_refused",
        `${check.message} (${check.reason}); nothing was signed`,
        `transactions[${index}]`,
      );
    }
    fees += check.feeLamports;
    checked.push(check.instructions);
  }
  const intents = relayedIntentsOf(checked, service.cluster.programId);
  refuseRepeatedIds(intents);
  await reserveRelayFees(service, agent.id, fees);
  const rows = await recordRelayedIntents(service, agent, apiKeyId, intents);
  const answers: (TTransfer | null)[] = intents.map(() => null);
  /** The transfers of transaction `index` and after: none landed, none was initiated. */
  const refuseFrom = async (index: number, error: unknown) => {
    const code = error instanceof ApiError ? error.code : "relay_failed";
    for (const [at, intent] of intents.entries()) {
      if (intent.wireIndex >= index) await recordRelayedRefusal(service, rows[at] as TransferRow, code);
    }
  };
  const signatures: string[] = [];
  for (const [index, wire] of wires.entries()) {
    const here = [...intents.entries()].filter(([, intent]) => intent.wireIndex === index);
    for (const [at, intent] of here) {
      if (intent.validityContext !== null) {
        rows[at] = await recordConfidentialUsage(
          service,
          agent,
          rows[at] as TransferRow,
          intent.validityContext,
        );
      }
    }
    let signature: string;
    try {
      signature = await submitOne(service, wire, index, checked[index] ?? []);
    } catch (error) {
      await refuseFrom(index, error);
      throw error;
    }
    signatures.push(signature);
    await chargeRelaySpend(service, agent.id, rentPaid(service, signature));
    // Recorded now, not after the loop: a later transaction's failure must not leave these
    // transfers `submitting` (what landed is held or submitted, whatever follows).
    try {
      for (const [at, intent] of here) {
        answers[at] = await recordRelayedOutcome(service, agent, rows[at] as TransferRow, intent, signature);
      }
    } catch (error) {
      await refuseFrom(index + 1, error);
      throw error;
    }
  }
  return { signatures, transfer: answers[0] ?? null };
}

/** What the fee payer (account 0) lost in a landed transaction beyond its fee: rent deposited (or, negative, returned). */
function rentPaid(service: ServiceContext, signature: string): bigint {
  const landed = service.cluster.getTransaction(signature);
  if (landed === null) return 0n;
  const before = landed.preBalances[0] ?? 0n;
  const after = landed.postBalances[0] ?? 0n;
  return before - after - landed.fee;
}

function relayLimiter(service: ServiceContext): RateLimiter {
  let limiter = limiters.get(service);
  if (limiter === undefined) {
    limiter = createRateLimiter(service.config.relayRateLimitPerMinute);
    limiters.set(service, limiter);
  }
  return limiter;
}

/** Simulates, co-signs and submits one checked transaction; its signature once it landed. */
async function submitOne(
  service: ServiceContext,
  wire: Uint8Array,
  index: number,
  instructions: readonly RelayedInstruction[],
): Promise<string> {
  const refused = (err: TransactionErrorJson | null) => refusalOf(err, index, instructions);
  const simulated = service.cluster.simulateTransaction(wire, { sigVerify: false });
  if (simulated.err !== null) throw refused(simulated.err);
  const signed = await coSignAsFeePayer(service.feePayer, wire);
  let signature: string;
  try {
    signature = service.cluster.sendTransaction(signed);
  } catch (error) {
    if (error instanceof SubmissionRejected) throw refused(error.outcome?.err ?? null);
    throw error;
  }
  const status = service.cluster.getSignatureStatus(signature);
  if (status === null) throw new ApiError("chain_unavailable", `transactions[${index}] did not land`);
  if (status.err !== null) throw refused(status.err);
  return signature;
}

/** The program's refusal as the API words it for any agent transfer; anything else is named as is. */
function refusalOf(
  err: TransactionErrorJson | null,
  index: number,
  instructions: readonly RelayedInstruction[],
): ApiError {
  const programRefusal =
    err === null
      ? null
      : programRefusalOf(
          err,
          instructions.map((instruction) => instruction.program as Address),
        );
  if (programRefusal !== null) {
    const refusal = policyRefusalOf(programRefusal);
    if (refusal !== null) return new ApiError("policy_violation", refusal.message, refusal.param);
    return new ApiError(
      "relay_transaction_refused",
      `the program refused transactions[${index}]: ${programRefusal.programError.name}`,
      `transactions[${index}]`,
    );
  }
  if (JSON.stringify(err).includes("InsufficientFunds") || JSON.stringify(err).includes('"Custom":1}')) {
    return new ApiError("insufficient_balance", `transactions[${index}] moves more than the agent holds`);
  }
  return new ApiError(
    "relay_transaction_refused",
    `transactions[${index}] failed: ${err === null ? "it did not execute" : JSON.stringify(err)}`,
    `transactions[${index}]`,
  );
}
