/**
 * The receipt job (registered at import; api/src/jobs.ts imports this module), every
 * RECEIPT_CLOSE_INTERVAL_MS. Every transfer the service makes records itself with
 * `transfer_record`, whose Receipt PDA `["receipt", sender, transfer_id]` the fee reserve pays
 * for. Once the transfer is settled and its receipt is RECEIPT_MIN_AGE_SLOTS old at `finalized`
 * commitment, the receipt has done its work: the record is final and no signed copy of the
 * transfer can land any more (the program checks the same age). The job closes such receipts with
 * `receipt_close`, CLOSES_PER_TRANSACTION per transaction paid and signed by the reserve, which
 * gets every lamport back, and writes one `receipt_closures` row per transfer:
 * - `closed`: `rent_returned` lamports (the receipt's whole balance) in `signature`;
 * - `none`: nothing of the reserve's to close — no receipt (nothing landed, or a path that records
 *   none), or one someone else paid for (a relayed transaction) or that names no payer.
 *
 * Only `settled` transfers are looked at: crash recovery learns whether a `submitting` transfer
 * landed from its receipt (find-landed-transfer.ts), and the service resubmits nothing once a
 * transfer is settled. A receipt that does not exist yet is judged `none` only once the transfer
 * is older than RECONCILE_AFTER_MS (by then every transaction of it has expired).
 */

import type { AccountRow, TransferRow } from "@cpay/ledger";
import { bytesOfId } from "@cpay/ledger/ids";
import {
  buildReceiptCloseInstruction,
  findReceiptPda,
  getAgentDecoder,
  getReceiptDecoder,
  getReceiptSize,
  RECEIPT_MIN_AGE_SLOTS,
} from "@cpay/sdk";
import { type Address, address } from "@solana/kit";
import { and, asc, eq, isNull } from "drizzle-orm";
import { sendInstructions } from "../chain/send-instructions";
import { registerLeaderJob } from "../coordination/background-jobs";
import { describeUnexpected } from "../core/describe-unexpected";
import type { ServiceContext } from "../core/service-context";
import { creditReturnedRent } from "../reserve/reserve-charges";
import { withReserveSpend } from "../reserve/reserve-scope";
import { RECONCILE_AFTER_MS } from "./recover-submissions";

export const RECEIPT_CLOSE_INTERVAL_MS = 5_000;
/** 16 closes (2 accounts, 8 data bytes each) fit a 1,232-byte transaction and ~31k compute units. */
export const CLOSES_PER_TRANSACTION = 16;
const BATCH = 100;

/** A receipt the reserve may close now, and the transfer it belongs to. */
interface Closable {
  readonly transferId: string;
  readonly receipt: Address;
  readonly lamports: bigint;
  /** The account the receipt's rent was advanced for (an agent's owner). */
  readonly chargedAccountId: string;
}

/** One pass: judges up to BATCH settled transfers without a closure row, closes what it may. */
export async function closeReceipts(
  service: ServiceContext,
  options: { readonly absentAfterMs?: number } = {},
): Promise<void> {
  const { transfers, accounts, receiptClosures } = service.db.tables;
  const rows = await service.db.read((db) =>
    db
      .select({ transfer: transfers, account: accounts })
      .from(transfers)
      .innerJoin(accounts, eq(accounts.id, transfers.accountId))
      .leftJoin(receiptClosures, eq(receiptClosures.transferId, transfers.id))
      .where(and(eq(transfers.phase, "settled"), isNull(receiptClosures.transferId)))
      .orderBy(asc(transfers.createdAt))
      .limit(BATCH),
  );
  const absentBefore = new Date(
    service.clock() - (options.absentAfterMs ?? RECONCILE_AFTER_MS),
  ).toISOString();
  const finalizedSlot = await service.chain.getSlot("finalized");
  // Every row's receipt is read at once; the verdicts are then acted on in order.
  const judged = await Promise.all(
    rows.map(async ({ transfer, account }) => {
      const receipt = await receiptOf(service, transfer, account);
      return { receipt, verdict: receipt === null ? "absent" : await judge(service, receipt, finalizedSlot) };
    }),
  );
  const closable: Closable[] = [];
  for (const [index, { transfer, account }] of rows.entries()) {
    const { receipt, verdict } = judged[index] as (typeof judged)[number];
    if (verdict === "wait") continue;
    if (verdict === "absent" && transfer.createdAt >= absentBefore) continue;
    if (verdict === "absent" || verdict === "none") {
      await recordNone(service, transfer.id, receipt);
      continue;
    }
    closable.push({
      transferId: transfer.id,
      receipt: verdict.receipt,
      lamports: verdict.lamports,
      chargedAccountId: account.type === "agent" ? (account.ownerAccountId ?? account.id) : account.id,
    });
  }
  for (let start = 0; start < closable.length; start += CLOSES_PER_TRANSACTION) {
    const chunk = closable.slice(start, start + CLOSES_PER_TRANSACTION);
    try {
      await closeChunk(service, chunk);
    } catch (error) {
      // Closed meanwhile by another process of the service, or the cluster said no: the next pass
      // judges these transfers again.
      service.logger.warn(
        { receipts: chunk.length, err: describeUnexpected(error) },
        "closing receipts failed; retrying",
      );
    }
  }
}

/**
 * The receipt address of a transfer: `["receipt", sender, id]` with the sender the transfer's
 * `transfer_record` signer — the wallet of a personal/business account, the agent signer (read from
 * the Agent account) of an agent. Null when the agent is not on the cluster.
 */
async function receiptOf(
  service: ServiceContext,
  transfer: TransferRow,
  account: AccountRow,
): Promise<Address | null> {
  let sender: Address = address(account.publicKey);
  if (account.type === "agent") {
    const agent = await service.chain.getAccount(account.publicKey);
    if (agent === null || agent.owner !== service.chain.programId) return null;
    sender = getAgentDecoder().decode(agent.data).agentSigner;
  }
  const [receipt] = await findReceiptPda(
    { sender, transferId: bytesOfId(transfer.id) },
    { programAddress: address(service.chain.programId) },
  );
  return receipt;
}

/**
 * `absent` (no account), `none` (not a receipt the reserve paid for: another payer, or a layout
 * that names none), `wait` (younger than the minimum age at `finalized`), or what to close.
 */
async function judge(
  service: ServiceContext,
  receipt: Address,
  finalizedSlot: bigint,
): Promise<"absent" | "none" | "wait" | { readonly receipt: Address; readonly lamports: bigint }> {
  const account = await service.chain.getAccount(receipt);
  if (account === null) return "absent";
  if (account.owner !== service.chain.programId || account.data.length !== getReceiptSize()) return "none";
  const decoded = getReceiptDecoder().decode(account.data);
  if (decoded.rentPayer !== service.feePayer.address) return "none";
  if (finalizedSlot < decoded.recordedSlot + RECEIPT_MIN_AGE_SLOTS) return "wait";
  return { receipt, lamports: BigInt(account.lamports) };
}

async function closeChunk(service: ServiceContext, chunk: readonly Closable[]): Promise<void> {
  const programAddress = address(service.chain.programId);
  // The service's own spend (uncounted): the fee of giving rent back to the reserve. The rent itself
  // comes off what the account it was advanced for has out, once the close has landed.
  const signature = await withReserveSpend(service, null, () =>
    sendInstructions(
      service,
      chunk.map(({ receipt }) =>
        buildReceiptCloseInstruction({ receipt, rentReceiver: service.feePayer, programAddress }),
      ),
    ),
  );
  const { receiptClosures } = service.db.tables;
  const closedAt = new Date(service.clock()).toISOString();
  await service.db.transaction(async (tx) => {
    for (const { transferId, receipt, lamports } of chunk) {
      const values = {
        outcome: "closed",
        rentReturned: Number(lamports),
        signature,
        closedAt,
      };
      // A `none` another process wrote after this close landed must not hide the rent returned.
      await tx
        .insert(receiptClosures)
        .values({ transferId, receiptAddress: receipt, ...values })
        .onConflictDoUpdate({ target: receiptClosures.transferId, set: values });
    }
  });
  // After the rows: a crash in between loses a credit (the account's advances over-count, the safe
  // side) and never gives one twice, since only the one close that landed gets here.
  for (const { chargedAccountId, lamports } of chunk) {
    await creditReturnedRent(service, chargedAccountId, lamports);
  }
}

async function recordNone(
  service: ServiceContext,
  transferId: string,
  receipt: Address | null,
): Promise<void> {
  const { receiptClosures } = service.db.tables;
  await service.db.transaction((tx) =>
    tx
      .insert(receiptClosures)
      .values({
        transferId,
        receiptAddress: receipt ?? "",
        outcome: "none",
        rentReturned: 0,
        signature: null,
        closedAt: new Date(service.clock()).toISOString(),
      })
      .onConflictDoNothing(),
  );
}

registerLeaderJob({
  name: "close-receipts",
  everyMs: RECEIPT_CLOSE_INTERVAL_MS,
  pass: closeReceipts,
  failure: "closing receipts failed",
});
