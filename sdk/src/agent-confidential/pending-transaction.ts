/**
 * A hold (`PendingTransaction`, state/pending.rs) decoded for both kinds: public holds are 416
 * bytes; a confidential hold (`confidential = 1`) is 544 and pins the transfer's three Token-2022
 * proof contexts and the prover-state blobs. A confidential hold has no amount: its `amount` field
 * is 0 on-chain and `null` here, so nothing downstream can mistake it for a zero transfer.
 *
 * | offset | size | field |
 * |---|---|---|
 * | 8 | 32 | agent |
 * | 40 | 8 | nonce u64 |
 * | 48 / 80 / 112 | 32 each | source / destination / mint |
 * | 144 | 8 | amount u64 (0 for confidential) |
 * | 152 / 160 | 8 each | requested_at / expires_at i64 |
 * | 168 | 32 | rent_payer |
 * | 200 | 1 | recipient_handle_len |
 * | 202 | 1 | confidential |
 * | 208 | 64 | recipient_handle |
 * | 272 | 16 | transfer_id |
 * | 288 / 320 / 352 | 32 each | equality / ciphertext validity / range contexts (confidential) |
 * | 384 | 36 | new_source_decryptable_available_balance |
 * | 420 / 456 | 36 each | spend_decryptable_same_day / _next_day |
 * | 492 / 500 | 8 each | proven_per_transaction_limit / proven_daily_limit u64 |
 * | 508 | 8 | hold_day i64 |
 */
import { type Address, getAddressDecoder } from "@solana/kit";
import { PENDING_TRANSACTION_DISCRIMINATOR } from "../generated";

export const PUBLIC_HOLD_LENGTH = 416;
export const CONFIDENTIAL_HOLD_LENGTH = 544;

/** The contexts a confidential hold pins (authority: the agent PDA). */
export interface PinnedContexts {
  readonly equalityProof: Address;
  readonly ciphertextValidityProof: Address;
  readonly rangeProof: Address;
}

export interface Hold {
  readonly address: Address;
  readonly agent: Address;
  readonly nonce: bigint;
  readonly source: Address;
  readonly destination: Address;
  readonly mint: Address;
  /** Base units of a public hold; always null for a confidential one. */
  readonly amount: bigint | null;
  readonly requestedAt: bigint;
  readonly expiresAt: bigint;
  readonly rentPayer: Address;
  readonly recipientHandle: string | null;
  readonly transferId: Uint8Array;
  readonly confidential: boolean;
  /** Only for confidential holds. */
  readonly contexts: PinnedContexts | null;
  /** Only for confidential holds: the limits the held proofs were checked against. */
  readonly provenPerTransactionLimit: bigint | null;
  readonly provenDailyLimit: bigint | null;
  readonly holdDay: bigint | null;
}

/** Decodes a hold's bytes, or returns null when they are not a PendingTransaction of either kind. */
export function decodeHold(address: Address, data: Uint8Array): Hold | null {
  if (data.length !== PUBLIC_HOLD_LENGTH && data.length !== CONFIDENTIAL_HOLD_LENGTH) return null;
  if (!PENDING_TRANSACTION_DISCRIMINATOR.every((byte, i) => data[i] === byte)) return null;
  const confidential = data[202] === 1;
  if (confidential !== (data.length === CONFIDENTIAL_HOLD_LENGTH)) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const addressAt = (offset: number) => getAddressDecoder().decode(data, offset);
  const handleLength = Math.min(data[200] ?? 0, 64);
  return {
    address,
    agent: addressAt(8),
    nonce: view.getBigUint64(40, true),
    source: addressAt(48),
    destination: addressAt(80),
    mint: addressAt(112),
    amount: confidential ? null : view.getBigUint64(144, true),
    requestedAt: view.getBigInt64(152, true),
    expiresAt: view.getBigInt64(160, true),
    rentPayer: addressAt(168),
    recipientHandle:
      handleLength === 0 ? null : new TextDecoder().decode(data.subarray(208, 208 + handleLength)),
    transferId: data.slice(272, 288),
    confidential,
    contexts: confidential
      ? { equalityProof: addressAt(288), ciphertextValidityProof: addressAt(320), rangeProof: addressAt(352) }
      : null,
    provenPerTransactionLimit: confidential ? view.getBigUint64(492, true) : null,
    provenDailyLimit: confidential ? view.getBigUint64(500, true) : null,
    holdDay: confidential ? view.getBigInt64(508, true) : null,
  };
}
