/**
 * The service seals what it knows of a transfer at creation (`@cpay/sdk/sealed` envelope v1): the
 * amount and memo, from the sender's keys to the recipient's ElGamal key — a service account's
 * (from the vault), or an outside token account's configured for confidential transfers (from the
 * chain) — else to the sender's own key. A hold's amount is sealed again from the
 * agent to its owner. Only the two parties' secrets open either; the service keeps the ciphertext
 * and never shows the plaintext (it lives in the request's memory, as the proofs need it anyway).
 */

import type { AccountRow } from "@cpay/ledger";
import { holdTransactionId } from "@cpay/ledger/ids";
import type { ConfidentialKeyset } from "@cpay/sdk/confidential";
import { findTokenAccount, readConfidentialState } from "@cpay/sdk/confidential";
import { littleEndianToBigInt, sealTransferDetails } from "@cpay/sdk/sealed";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";
import { confidentialKeysOf } from "../vault/account-secrets";
import type { Sender } from "./sender";
import type { TransferPlan } from "./transfer-plan";

/** The plan's amount and memo sealed from the sender to the recipient, bound to the transfer id. */
export async function sealTransfer(
  service: ServiceContext,
  sender: Sender,
  plan: TransferPlan,
): Promise<string> {
  const recipientPubkey = (await recipientPubkeyOf(service, plan)) ?? sender.keys.elgamalPubkey;
  return seal(sender.keys, recipientPubkey, plan, plan.id);
}

/**
 * The held amount (and memo) of an agent's transfer sealed from the agent to its owner, bound to
 * the hold's id (derived from the on-chain hold's address, as `markHeld` names it).
 */
export async function sealHeldAmount(
  service: ServiceContext,
  agent: Sender,
  plan: TransferPlan,
  holdAddress: string,
): Promise<string> {
  const ownerPubkey = (await ownerPubkeyOf(service, agent.account)) ?? agent.keys.elgamalPubkey;
  return seal(agent.keys, ownerPubkey, plan, holdTransactionId(holdAddress));
}

/** The ElGamal key of the owner of `agent`, or null when it has none the service knows. */
export async function ownerPubkeyOf(service: ServiceContext, agent: AccountRow): Promise<Uint8Array | null> {
  if (agent.ownerAccountId === null) return null;
  const ownerId = agent.ownerAccountId;
  const { accounts } = service.db.tables;
  const [owner] = await service.db.read((db) => db.select().from(accounts).where(eq(accounts.id, ownerId)));
  return owner === undefined ? null : (await confidentialKeysOf(service, owner)).elgamalPubkey;
}

async function recipientPubkeyOf(service: ServiceContext, plan: TransferPlan): Promise<Uint8Array | null> {
  const { recipient, asset } = plan;
  if (recipient.account !== null) return (await confidentialKeysOf(service, recipient.account)).elgamalPubkey;
  const state = await readConfidentialState(
    service.chain,
    await findTokenAccount(recipient.wallet, asset.mint),
  );
  return state?.elgamalPubkey ?? null;
}

function seal(
  keys: ConfidentialKeyset,
  recipientPubkey: Uint8Array,
  plan: TransferPlan,
  boundTo: string,
): string {
  return sealTransferDetails({
    amount: plan.amount,
    memo: plan.memo,
    senderScalar: scalarOf(keys),
    senderPubkey: keys.elgamalPubkey,
    recipientPubkey,
    boundTo,
  });
}

/** The ElGamal secret scalar (zk-sdk's 32 little-endian bytes) as a number. */
function scalarOf(keys: ConfidentialKeyset): bigint {
  return littleEndianToBigInt(keys.elgamal.secret().toBytes());
}
