/**
 * The `confidential` scheme's amount check on real zk-sdk ciphertexts and proofs: the transfer's
 * validity context is built as the payer's SDK builds it and laid out as the ZK ElGamal Proof
 * program stores it (authority 32, proof type 12, context 352); the amount proof is the payer's.
 */
import { parseValidityProofContext, transferAmountCiphertext } from "@cpay/sdk/agent-confidential";
import {
  type ConfidentialKeyset,
  createBalanceProof,
  deriveConfidentialKeys,
  encryptTransferAmount,
  generateConfidentialSecret,
} from "@cpay/sdk/confidential";
import { describe, expect, it } from "vitest";
import {
  CONFIDENTIAL_AMOUNT_REASONS,
  type ConfidentialAmountInput,
  verifyConfidentialAmount,
} from "./confidential-amount";

const ZK_ELGAMAL_PROOF_PROGRAM = "ZkE1Gama1Proof11111111111111111111111111111";
const GROUPED_3_HANDLES_VALIDITY = 12;
const NO_AUDITOR = new Uint8Array(32);
const PRICE = 1_234_567n;

const payer = deriveConfidentialKeys(generateConfidentialSecret());
const merchant = deriveConfidentialKeys(generateConfidentialSecret());

/** A transfer of `amount` from `from` to `to`: its context account bytes and the payer's proof. */
function confidentialTransfer(amount: bigint, from: ConfidentialKeyset = payer, to = merchant) {
  const { validityContext } = encryptTransferAmount({
    amount,
    recipientPubkey: to.elgamalPubkey,
    auditorPubkey: NO_AUDITOR,
    keys: from,
  });
  const data = new Uint8Array(33 + validityContext.length);
  data.set(new Uint8Array(32).fill(7), 0);
  data[32] = GROUPED_3_HANDLES_VALIDITY;
  data.set(validityContext, 33);
  const context = parseValidityProofContext(validityContext);
  const amountProof = createBalanceProof({
    keys: from,
    availableCiphertext: transferAmountCiphertext(context),
    amount,
  });
  const commitments = { lo: context.groupedLo.slice(0, 32), hi: context.groupedHi.slice(0, 32) };
  return { account: { owner: ZK_ELGAMAL_PROOF_PROGRAM, data }, amountProof, commitments };
}

/** The check of a payment of `PRICE` by `transfer`, with `changes` applied. */
function check(transfer = confidentialTransfer(PRICE), changes: Partial<ConfidentialAmountInput> = {}) {
  return verifyConfidentialAmount({
    context: transfer.account,
    transferCommitments: transfer.commitments,
    merchantElgamalPubkey: merchant.elgamalPubkey,
    amountProof: transfer.amountProof,
    amount: PRICE,
    ...changes,
  });
}

function refusalOf(verdict: ReturnType<typeof verifyConfidentialAmount>) {
  return verdict.accepted ? "accepted" : verdict.reason;
}

describe("verifyConfidentialAmount", () => {
  it("accepts a transfer that provably pays the price to the merchant's key, and names its commitments", () => {
    // Given a confidential transfer of exactly the price, and the payer's proof of its amount
    const transfer = confidentialTransfer(PRICE);
    // When the facilitator checks it
    const verdict = check(transfer);
    // Then it is accepted, for that amount and the transfer's own commitments
    expect(verdict).toEqual({ accepted: true, amount: PRICE, commitments: transfer.commitments });
  });

  it("accepts an agent's payment, whose transaction carries no commitments, on the context alone", () => {
    // Given a transfer whose program reads the context itself (no commitments in the transaction)
    // When it is checked without them
    const verdict = check(confidentialTransfer(PRICE), { transferCommitments: undefined });
    // Then the context and the proof suffice
    expect(verdict.accepted).toBe(true);
  });

  it("refuses a context the ZK ElGamal Proof program did not write, of another type or length", () => {
    // Given the same transfer's bytes under another owner, with another proof type, cut short
    const transfer = confidentialTransfer(PRICE);
    const otherType = transfer.account.data.slice();
    otherType[32] = 11;
    const accounts = [
      { owner: "11111111111111111111111111111111", data: transfer.account.data },
      { owner: ZK_ELGAMAL_PROOF_PROGRAM, data: otherType },
      { owner: ZK_ELGAMAL_PROOF_PROGRAM, data: transfer.account.data.slice(0, -1) },
    ];
    // When each is checked
    const reasons = accounts.map((context) => refusalOf(check(transfer, { context })));
    // Then each is not a verified context
    expect(reasons).toEqual(Array(3).fill(CONFIDENTIAL_AMOUNT_REASONS.contextNotVerified));
  });

  it("refuses an amount encrypted to another key than the merchant's", () => {
    // Given a transfer whose recipient handles are for someone else
    const elsewhere = confidentialTransfer(
      PRICE,
      payer,
      deriveConfidentialKeys(generateConfidentialSecret()),
    );
    // When it is checked as a payment to the merchant
    // Then the merchant could not read it: refused
    expect(refusalOf(check(elsewhere))).toBe(CONFIDENTIAL_AMOUNT_REASONS.recipientKeyMismatch);
  });

  it("refuses a context whose commitments are not the ones the transfer carries", () => {
    // Given a transaction carrying another transfer's commitments than the context it names
    const other = confidentialTransfer(PRICE);
    // When it is checked
    const verdict = check(confidentialTransfer(PRICE), { transferCommitments: other.commitments });
    // Then the context is not the transfer's
    expect(refusalOf(verdict)).toBe(CONFIDENTIAL_AMOUNT_REASONS.contextMismatch);
  });

  it("refuses an amount proof that does not open this transfer's commitments", () => {
    // Given proofs of the same price for another transfer, by another payer, altered, and not a proof
    const stranger = deriveConfidentialKeys(generateConfidentialSecret());
    const genuine = Buffer.from(confidentialTransfer(PRICE).amountProof, "base64");
    genuine[genuine.length - 1] = (genuine[genuine.length - 1] ?? 0) ^ 1;
    const proofs = [
      confidentialTransfer(PRICE).amountProof,
      confidentialTransfer(PRICE, stranger).amountProof,
      genuine.toString("base64"),
      "not base64!",
    ];
    // When each is presented with one transfer
    const transfer = confidentialTransfer(PRICE);
    const reasons = proofs.map((amountProof) => refusalOf(check(transfer, { amountProof })));
    // Then none proves this transfer's amount
    expect(reasons).toEqual(Array(4).fill(CONFIDENTIAL_AMOUNT_REASONS.amountProofInvalid));
  });

  it("refuses a transfer of another amount than the price, without repeating the amount", () => {
    // Given honest transfers of one unit less and one unit more than the price
    const amounts = [PRICE - 1n, PRICE + 1n];
    // When each is checked against the price
    const verdicts = amounts.map((amount) => check(confidentialTransfer(amount)));
    // Then both are refused, and the message does not carry the proven amount
    for (const [i, verdict] of verdicts.entries()) {
      expect(refusalOf(verdict)).toBe(CONFIDENTIAL_AMOUNT_REASONS.amountMismatch);
      expect(verdict.accepted ? "" : verdict.message).not.toContain(String(amounts[i]));
    }
  });
});
