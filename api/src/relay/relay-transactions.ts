/**
 * `POST /v1/relay`: a self-custody agent's signed transactions, paid by the fee reserve.
 *
 * 1. The owner's identity verification (`403 kyc_required`), as for the service's own transfers
 *    (the door has counted the request against the agent's rate limit first: http/handlers/relay.ts).
 * 2. Every transaction is checked BEFORE anything is signed (check-relayed-transaction.ts): the fee
 *    payer used for fees and rent only, only the allowed programs and instructions, the agent's own
 *    PDA and signer, no extra signer, a `transfer_record` only beside the agent's own
 *    `agent_transfer` of the same id (checks/transfer-record.ts), and the fee payer opening token
 *    accounts only for the service's own accounts (external-account-opening.ts). One refusal
 *    refuses the request: `422 relay_transaction_refused` naming `transactions[i]` and why;
 *    nothing is signed.
 * 3. The most the transactions can cost the reserve (fees and every deposit, reserve/spend-bound.ts)
 *    is reserved against the agent's daily cap (fee-budget.ts) and its owner's reserve budget
 *    (reserve/), or `429`, nothing signed; each is settled to what it cost once it landed.
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

import type { AccountRow, TransferRow } from "@cpay/ledger";
import type { TRelayResponse, TTransfer } from "@cpay/sdk/api";
import { awaitLanding, SubmissionRejected, type TransactionErrorJson } from "@cpay/sdk/chain";
import {
  type Address,
  address,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
} from "@solana/kit";
import { requireKyc } from "../accounts/require-kyc";
import { rentExemptMinimumOf } from "../chain/rent";
import { programRefusalOf } from "../chain/send-instructions";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { noteReserveSignature, prepayReserve, reserveCostOf } from "../reserve/reserve-scope";
import { spendBoundOf } from "../reserve/spend-bound";
import { policyRefusalOf } from "../transfers/policy-refusal";
import { checkRelayedTransaction } from "./check-relayed-transaction";
import type { RelayedInstruction } from "./checks/verdict";
import { coSignAsFeePayer } from "./co-sign";
import { refuseExternalAccountOpenings } from "./external-account-opening";
import { chargeRelaySpend, reserveRelayFees } from "./fee-budget";
import { relayedIntentsOf } from "./relayed-intent";
import {
  recordRelayedIntents,
  recordRelayedOutcome,
  recordRelayedRefusal,
  refuseRepeatedIds,
} from "./relayed-transfer-row";
import { recordConfidentialUsage } from "./relayed-usage";

export async function relayTransactions(
  service: ServiceContext,
  caller: { readonly account: AccountRow; readonly apiKeyId: string },
  request: { readonly transactions: readonly string[]; readonly sealedAmount: string | null },
): Promise<TRelayResponse> {
  const { account: agent, apiKeyId } = caller;
  const { transactions } = request;
  if (agent.agentSigner === null)
    throw new ApiError("agent_key_required", "this key's account has no agent signer");
  // The relay moves the agent's funds: the same gate as POST /v1/transfers (its owner's status).
  await requireKyc(service, agent);
  const wires = transactions.map((text) => new Uint8Array(getBase64Encoder().encode(text)));
  const rentExemptMinimum = await rentExemptMinimumOf(service.chain);
  const bounds: bigint[] = [];
  const checked: (readonly RelayedInstruction[])[] = [];
  for (const [index, wire] of wires.entries()) {
    const check = checkRelayedTransaction(wire, {
      feePayer: service.feePayer.address,
      programId: service.chain.programId,
      usdgMint: service.chain.usdgMint,
      agent: { pda: agent.publicKey, signer: agent.agentSigner },
      rentExemptMinimum,
    });
    if (!check.ok) {
      throw new ApiError(
        "relay_transaction_refused",
        `${check.message} (${check.reason}); nothing was signed`,
        `transactions[${index}]`,
      );
    }
    const bound = spendBoundOf(check.messageBytes, {
      feePayer: service.feePayer.address,
      programId: service.chain.programId,
      rentExemptMinimum,
    });
    bounds.push(bound.feeLamports + bound.depositLamports);
    checked.push(check.instructions);
  }
  await refuseExternalAccountOpenings(service, checked);
  const intents = relayedIntentsOf(checked, service.chain.programId);
  refuseRepeatedIds(intents);
  const reserved = bounds.reduce((sum, bound) => sum + bound, 0n);
  await reserveRelayFees(service, agent.id, reserved);
  try {
    await prepayReserve(service, reserved);
  } catch (error) {
    await chargeRelaySpend(service, agent.id, -reserved);
    throw error;
  }
  const signatures: string[] = [];
  // Each transaction's reservation is settled once: to what it cost if it was signed, else to 0.
  let settled = 0;
  const settleUpTo = async (end: number, signature: string | null) => {
    let change = 0n;
    for (; settled < end; settled++) change -= bounds[settled] ?? 0n;
    if (signature !== null) change += await reserveCostOf(service, signature);
    await chargeRelaySpend(service, agent.id, change);
  };
  try {
    const rows = await recordRelayedIntents(service, agent, apiKeyId, intents);
    const answers: (TTransfer | null)[] = intents.map(() => null);
    /** The transfers of transaction `index` and after: none landed, none was initiated. */
    const refuseFrom = async (index: number, error: unknown) => {
      const code = error instanceof ApiError ? error.code : "relay_failed";
      for (const [at, intent] of intents.entries()) {
        if (intent.wireIndex >= index) await recordRelayedRefusal(service, rows[at] as TransferRow, code);
      }
    };
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
      let signed: string | null = null;
      let signature: string;
      try {
        signature = await submitOne(service, wire, index, checked[index] ?? [], (landed, blockhash) => {
          signed = landed;
          noteReserveSignature(service, landed, blockhash);
        });
      } catch (error) {
        await refuseFrom(index, error);
        throw error;
      } finally {
        await settleUpTo(index + 1, signed);
      }
      signatures.push(signature);
      // Recorded now, not after the loop: a later transaction's failure must not leave these
      // transfers `submitting` (what landed is held or submitted, whatever follows).
      try {
        for (const [at, intent] of here) {
          answers[at] = await recordRelayedOutcome(
            service,
            agent,
            rows[at] as TransferRow,
            intent,
            signature,
            request.sealedAmount,
          );
        }
      } catch (error) {
        await refuseFrom(index + 1, error);
        throw error;
      }
    }
    return { signatures, transfer: answers[0] ?? null };
  } finally {
    await settleUpTo(wires.length, null);
  }
}

/** Simulates, co-signs and submits one checked transaction; its signature once it landed. */
async function submitOne(
  service: ServiceContext,
  wire: Uint8Array,
  index: number,
  instructions: readonly RelayedInstruction[],
  onSigned: (signature: string, blockhash: string) => void,
): Promise<string> {
  const refused = (err: TransactionErrorJson | null) =>
    refusalOf(err, index, instructions, address(service.chain.programId));
  const simulated = await service.chain.simulateTransaction(wire, { sigVerify: false });
  if (simulated.err !== null) throw refused(simulated.err);
  const signed = await coSignAsFeePayer(service.feePayer, wire);
  const blockhash = blockhashOf(signed);
  onSigned(getSignatureFromTransaction(getTransactionDecoder().decode(signed)), blockhash);
  let signature: string;
  try {
    signature = await service.chain.sendTransaction(signed);
  } catch (error) {
    if (error instanceof SubmissionRejected) throw refused(error.outcome?.err ?? null);
    throw error;
  }
  const status = await awaitLanding(service.chain, signature, blockhash, { wire: signed });
  if (status === null) throw new ApiError("chain_unavailable", `transactions[${index}] did not land`);
  if (status.err !== null) throw refused(status.err);
  return signature;
}

/** The blockhash a wire transaction was signed with: once it expires, the transaction cannot land. */
function blockhashOf(wire: Uint8Array): string {
  const { messageBytes } = getTransactionDecoder().decode(wire);
  return getCompiledTransactionMessageDecoder().decode(messageBytes).lifetimeToken;
}

/** The program's refusal as the API words it for any agent transfer; anything else is named as is. */
function refusalOf(
  err: TransactionErrorJson | null,
  index: number,
  instructions: readonly RelayedInstruction[],
  programAddress: Address,
): ApiError {
  const programRefusal =
    err === null
      ? null
      : programRefusalOf(
          err,
          instructions.map((instruction) => instruction.program as Address),
          programAddress,
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
