/**
 * The three proofs of a confidential transfer (no fee), built locally from the sender's keys:
 * - the amount is split lo (16 bits) / hi (32 bits) and each half encrypted once under three
 *   handles (sender, recipient, auditor) with its own opening;
 * - equality: the sender's new available ciphertext (available - lo - hi*2^16, computed exactly as
 *   Token-2022 will) and a fresh Pedersen commitment hold the same value;
 * - ciphertext validity: both grouped ciphertexts are well formed for the three keys;
 * - range: new balance < 2^64, lo < 2^16, hi < 2^32 (plus a 16-bit zero pad to fill 128 bits).
 * Pure computation, no chain access, so its time is the zk-sdk primitives' time (see bench).
 * `buildTransferProofs` makes them on this thread; `buildTransferProofsOnPool`
 * (pooled-transfer-proofs.ts) on a worker of the proof pool.
 */

import {
  assertAmount,
  BALANCE_BITS,
  splitAmount,
  TRANSFER_AMOUNT_HI_BITS,
  TRANSFER_AMOUNT_LO_BITS,
} from "./amounts";
import { ciphertextFromGrouped, subtractLoHi } from "./ciphertext-arithmetic";
import { ConfidentialError } from "./errors";
import type { ConfidentialKeyset } from "./keys";
import {
  BatchedGroupedCiphertext3HandlesValidityProofData,
  BatchedRangeProofU128Data,
  CiphertextCommitmentEqualityProofData,
  ElGamalCiphertext,
  type ElGamalKeypair,
  ElGamalPubkey,
  GroupedElGamalCiphertext3Handles,
  PedersenCommitment,
  PedersenOpening,
} from "./zk-sdk";

/** The range proof is a U128 batch: its bit lengths sum to 128, a zero commitment taking the rest. */
const RANGE_PADDING_BITS = 128 - BALANCE_BITS - Number(TRANSFER_AMOUNT_LO_BITS + TRANSFER_AMOUNT_HI_BITS);

export interface TransferProofInput {
  readonly keys: ConfidentialKeyset;
  /** The sender's on-chain available-balance ciphertext the proofs are made against. */
  readonly availableCiphertext: Uint8Array;
  /** The sender's exact available balance (what `availableCiphertext` encrypts). */
  readonly availableBalance: bigint;
  readonly amount: bigint;
  readonly recipientPubkey: Uint8Array;
  /** The mint's auditor key; 32 zero bytes when the mint has none. */
  readonly auditorPubkey: Uint8Array;
}

/** What the ElGamal keypair proves (everything but the AE copy of the new balance). */
export interface TransferProofData {
  readonly equalityProof: Uint8Array;
  readonly ciphertextValidityProof: Uint8Array;
  readonly rangeProof: Uint8Array;
  readonly auditorCiphertextLo: Uint8Array;
  readonly auditorCiphertextHi: Uint8Array;
}

export interface TransferProofs extends TransferProofData {
  /** The AE copy of the sender's balance after the transfer. */
  readonly newDecryptableAvailableBalance: Uint8Array;
}

/** The transfer's statement without the keys: what a proof worker receives beside the secret. */
export type TransferStatementInput = Omit<TransferProofInput, "keys">;

/**
 * The amount encrypted for one transfer: each half under the three handles with its own fresh
 * opening. Single use — the range proof consumes the commitments and openings it is given.
 */
export interface TransferAmountEncryption {
  readonly lo: bigint;
  readonly hi: bigint;
  readonly groupedLo: GroupedElGamalCiphertext3Handles;
  readonly groupedHi: GroupedElGamalCiphertext3Handles;
  readonly openingLo: PedersenOpening;
  readonly openingHi: PedersenOpening;
  /**
   * The ciphertext-validity proof context these make (source, recipient, auditor pubkeys, then
   * grouped lo and hi): what the agent-policy program reads, available before any proof work.
   */
  readonly validityContext: Uint8Array;
}

/** Splits and encrypts the amount (cheap: no proof); throws on an invalid amount. */
export function encryptTransferAmount(
  input: Pick<TransferProofInput, "amount" | "recipientPubkey" | "auditorPubkey"> & {
    readonly keys: Pick<ConfidentialKeyset, "elgamal">;
  },
): TransferAmountEncryption {
  assertAmount(input.amount);
  const [lo, hi] = splitAmount(input.amount, TRANSFER_AMOUNT_LO_BITS);
  const source = input.keys.elgamal.pubkey();
  const recipient = ElGamalPubkey.fromBytes(input.recipientPubkey);
  const auditor = ElGamalPubkey.fromBytes(input.auditorPubkey);
  const openingLo = new PedersenOpening();
  const openingHi = new PedersenOpening();
  const groupedLo = GroupedElGamalCiphertext3Handles.encryptWith(source, recipient, auditor, lo, openingLo);
  const groupedHi = GroupedElGamalCiphertext3Handles.encryptWith(source, recipient, auditor, hi, openingHi);
  const validityContext = new Uint8Array(3 * 32 + 2 * 128);
  validityContext.set(source.toBytes(), 0);
  validityContext.set(recipient.toBytes(), 32);
  validityContext.set(auditor.toBytes(), 64);
  validityContext.set(groupedLo.toBytes(), 96);
  validityContext.set(groupedHi.toBytes(), 224);
  return { lo, hi, groupedLo, groupedHi, openingLo, openingHi, validityContext };
}

/**
 * Builds the proofs and ciphertexts of one transfer; throws before any proof work on bad input.
 * `encryption` (from `encryptTransferAmount` with the same input) lets a caller read the amount's
 * ciphertexts before the proofs are made.
 */
export function buildTransferProofs(
  input: TransferProofInput,
  encryption: TransferAmountEncryption = encryptTransferAmount(input),
): TransferProofs {
  const newBalance = transferNewBalance(input);
  return {
    ...proveTransfer(input.keys.elgamal, input, encryption),
    newDecryptableAvailableBalance: input.keys.ae.encrypt(newBalance).toBytes(),
  };
}

/**
 * The sender's balance after the transfer; throws `invalid_amount` or
 * `insufficient_confidential_balance` (checked before any proof work).
 */
export function transferNewBalance(input: Pick<TransferProofInput, "amount" | "availableBalance">): bigint {
  assertAmount(input.amount);
  const newBalance = input.availableBalance - input.amount;
  if (newBalance < 0n) {
    throw new ConfidentialError(
      "insufficient_confidential_balance",
      "the available balance is smaller than the amount",
    );
  }
  return newBalance;
}

/**
 * The ciphertext-validity proof data of `encryption` under the keys it was made for (source,
 * recipient, auditor): each half encrypts the same value under all three handles.
 */
export function proveAmountValidity(
  keys: readonly [ElGamalPubkey, ElGamalPubkey, ElGamalPubkey],
  encryption: TransferAmountEncryption,
): Uint8Array {
  const { lo, hi, groupedLo, groupedHi, openingLo, openingHi } = encryption;
  return new BatchedGroupedCiphertext3HandlesValidityProofData(
    ...keys,
    groupedLo,
    groupedHi,
    lo,
    hi,
    openingLo,
    openingHi,
  ).toBytes();
}

/** The proofs `elgamal` makes for the transfer `input` with the amount's `encryption`. */
export function proveTransfer(
  elgamal: ElGamalKeypair,
  input: TransferStatementInput,
  encryption: TransferAmountEncryption,
): TransferProofData {
  const newBalance = transferNewBalance(input);
  const { lo, hi, groupedLo, groupedHi, openingLo, openingHi } = encryption;
  const source = elgamal.pubkey();
  const recipient = ElGamalPubkey.fromBytes(input.recipientPubkey);
  const auditor = ElGamalPubkey.fromBytes(input.auditorPubkey);
  const groupedLoBytes = groupedLo.toBytes();
  const groupedHiBytes = groupedHi.toBytes();

  const newBalanceCiphertext = ElGamalCiphertext.fromBytes(
    subtractLoHi(
      input.availableCiphertext,
      ciphertextFromGrouped(groupedLoBytes, 0),
      ciphertextFromGrouped(groupedHiBytes, 0),
      TRANSFER_AMOUNT_LO_BITS,
    ),
  );
  if (newBalanceCiphertext === undefined) throw new Error("invalid available-balance ciphertext");
  const newBalanceOpening = new PedersenOpening();
  const newBalanceCommitment = PedersenCommitment.from(newBalance, newBalanceOpening);

  // Objects passed by reference first: the range proof below consumes the array elements it gets.
  const equalityProof = new CiphertextCommitmentEqualityProofData(
    elgamal,
    newBalanceCiphertext,
    newBalanceCommitment,
    newBalanceOpening,
    newBalance,
  ).toBytes();
  const ciphertextValidityProof = proveAmountValidity([source, recipient, auditor], encryption);
  const paddingOpening = new PedersenOpening();
  const rangeProof = new BatchedRangeProofU128Data(
    [
      newBalanceCommitment,
      PedersenCommitment.fromBytes(groupedLoBytes.slice(0, 32)),
      PedersenCommitment.fromBytes(groupedHiBytes.slice(0, 32)),
      PedersenCommitment.from(0n, paddingOpening),
    ],
    new BigUint64Array([newBalance, lo, hi, 0n]),
    Uint8Array.from([
      BALANCE_BITS,
      Number(TRANSFER_AMOUNT_LO_BITS),
      Number(TRANSFER_AMOUNT_HI_BITS),
      RANGE_PADDING_BITS,
    ]),
    [newBalanceOpening, openingLo, openingHi, paddingOpening],
  ).toBytes();

  return {
    equalityProof,
    ciphertextValidityProof,
    rangeProof,
    auditorCiphertextLo: ciphertextFromGrouped(groupedLoBytes, 2),
    auditorCiphertextHi: ciphertextFromGrouped(groupedHiBytes, 2),
  };
}
