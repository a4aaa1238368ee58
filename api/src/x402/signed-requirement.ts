/**
 * The requirement a landed payment was settled against, read back from the payment's own signed
 * instructions, for the recovery of a settle whose process died (recover-settlements.ts): the
 * request's requirement lived only in that process's memory, but the verifier had checked the
 * transfer instruction against it before the claim was made, so the instruction says what was asked
 * — `payTo` the merchant (a key settles to its own account only), and the asset and amount the
 * instruction names (a wallet's TransferChecked), or USDG and the amount an agent's `agent_transfer`
 * names (the agent's policy may still have held or refused it: the landed check says what moved).
 */
import type { AccountRow } from "@cpay/ledger";
import { getAgentTransferInstructionDataDecoder } from "@cpay/sdk";
import type { TransactionRecord } from "@cpay/sdk/chain";
import type { ServiceContext } from "../core/service-context";
import { decodeWireMessage, type MessageInstruction } from "../reserve/message-instructions";
import type { PaymentShapeName } from "./payment-shapes";
import { tokenTransferOf } from "./token-transfers";
import type { TX402Requirements } from "./x402-contracts";

/** The landed payment's transfer instruction (instruction 2, after the two compute budget ones). */
export function transferInstructionOf(record: TransactionRecord): MessageInstruction {
  const transfer = decodeWireMessage(record.wire).instructions[2];
  if (transfer === undefined) throw new Error(`transaction ${record.signature} has no payment's transfer`);
  return transfer;
}

/** The requirement `transfer` (of a payment of `shape` to `merchant`) was verified to pay. */
export function signedRequirement(
  service: ServiceContext,
  input: {
    readonly merchant: AccountRow;
    readonly network: string;
    readonly shape: PaymentShapeName;
    readonly transfer: MessageInstruction;
  },
): TX402Requirements {
  const paid = signedPayment(service, input.shape, input.transfer);
  return {
    scheme: "exact",
    network: input.network,
    asset: paid.asset,
    amount: paid.amount.toString(),
    payTo: input.merchant.publicKey,
  };
}

function signedPayment(
  service: ServiceContext,
  shape: PaymentShapeName,
  transfer: MessageInstruction,
): { readonly asset: string; readonly amount: bigint } {
  if (shape === "agent_transfer") {
    const { amount } = getAgentTransferInstructionDataDecoder().decode(transfer.data);
    return { asset: service.chain.usdgMint, amount };
  }
  const checked = tokenTransferOf(transfer);
  if (checked?.mint == null) throw new Error("the payment's transfer is no TransferChecked");
  return { asset: checked.mint, amount: checked.amount };
}
