/**
 * The fees a landed transfer charged, read back from its transaction: crash recovery answers a
 * request whose process died before it could (http/recover-idempotency.ts), and the fee is a fact
 * of the chain, not of the row. The account-opening fee (account-opening.ts) is the Token-2022
 * TransferChecked, at the top level of the transfer's transaction, into the service's fee account;
 * a transfer whose recipient IS the fee account (someone paid the reserve's own address) charged
 * none, and its one TransferChecked there is the amount, so it is not read as a fee.
 */
import type { TransferRow } from "@cpay/ledger";
import type { TTransferFees } from "@cpay/sdk/api";
import { confirmedTransaction } from "@cpay/sdk/chain";
import { findTokenAccount } from "@cpay/sdk/confidential";
import { getCompiledTransactionMessageDecoder, getTransactionDecoder, getU64Decoder } from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import type { ServiceContext } from "../core/service-context";
import { feeAccountOf } from "../reserve/fee-account";
import { feesOf } from "./account-opening";
import { resolveAsset } from "./resolve-asset";
import { NO_FEES } from "./transfer-view";

/** Token-2022's TransferChecked: tag 12, amount (u64 LE), decimals; `[source, mint, destination, authority]`. */
const TRANSFER_CHECKED = 12;
const TRANSFER_CHECKED_DATA_LENGTH = 10;
const DESTINATION = 2;

/** What the transfer of `row` (with its signature) charged, as its create answer states it. */
export async function landedFeesOf(service: ServiceContext, row: TransferRow): Promise<TTransferFees> {
  if (row.confidential || row.txSignature === null) return NO_FEES;
  const asset = resolveAsset(service, row.asset);
  const [feeAccount, recipientAccount] = await Promise.all([
    feeAccountOf(service),
    findTokenAccount(row.recipientAddress, asset.mint),
  ]);
  if (feeAccount === recipientAccount) return NO_FEES;
  const landed = await confirmedTransaction(service.chain, row.txSignature);
  if (landed === null) return NO_FEES;
  const message = getCompiledTransactionMessageDecoder().decode(
    getTransactionDecoder().decode(landed.wire).messageBytes,
  );
  // The service signs legacy and v0 messages only.
  if (message.version === 1) return NO_FEES;
  const keys = message.staticAccounts as readonly string[];
  let fee = 0n;
  for (const instruction of message.instructions) {
    const data = instruction.data ?? new Uint8Array();
    const destination = keys[instruction.accountIndices?.[DESTINATION] ?? -1];
    if (
      keys[instruction.programAddressIndex] === TOKEN_2022_PROGRAM_ADDRESS &&
      data.length === TRANSFER_CHECKED_DATA_LENGTH &&
      data[0] === TRANSFER_CHECKED &&
      destination === feeAccount
    ) {
      fee += getU64Decoder().decode(data, 1);
    }
  }
  return feesOf({ opens: fee > 0n, fee }, asset);
}
