import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSealedError, type SealedErrorCode } from "./errors";
import {
  detailsOpenerFor,
  openTransferDetails,
  SEALED_DETAILS_LENGTH,
  sealTransferDetails,
} from "./transfer-details";
import { deriveViewingKeys, type ViewingKeys } from "./viewing-keys";

const keys = (fill: number) => deriveViewingKeys(new Uint8Array(32).fill(fill));
const sender = keys(1);
const recipient = keys(2);
const outsider = keys(3);
const boundTo = "tr_01J0000000000000000000000A";

const seal = (amount: bigint, memo: string | null, from: ViewingKeys, to: ViewingKeys, bound = boundTo) =>
  sealTransferDetails({
    amount,
    memo,
    senderScalar: from.elgamalScalar,
    senderPubkey: from.elgamalPubkey,
    recipientPubkey: to.elgamalPubkey,
    boundTo: bound,
  });

const refusal = (attempt: () => unknown): SealedErrorCode | "opened" | "other" => {
  try {
    attempt();
    return "opened";
  } catch (error) {
    return isSealedError(error) ? error.code : "other";
  }
};

describe("sealed transfer details (envelope v1)", () => {
  it("Given details sealed to a recipient, then the sender opens them as sent and the recipient as received", () => {
    const sealed = seal(12_345_678n, "invoice 114: GPU hours", sender, recipient);
    expect(openTransferDetails({ sealed, viewer: sender, boundTo })).toEqual({
      amount: 12_345_678n,
      memo: "invoice 114: GPU hours",
      direction: "sent",
    });
    expect(openTransferDetails({ sealed, viewer: recipient, boundTo })).toEqual({
      amount: 12_345_678n,
      memo: "invoice 114: GPU hours",
      direction: "received",
    });
  });

  it("Given details sealed to oneself, then the sender opens them as self", () => {
    const sealed = seal(1n, null, sender, sender);
    expect(openTransferDetails({ sealed, viewer: sender, boundTo })).toEqual({
      amount: 1n,
      memo: null,
      direction: "self",
    });
  });

  it("Given any u64 amount and memo up to 200 bytes, then the envelope is 313 bytes and both parties open it", () => {
    const memo = fc
      .option(fc.string({ unit: "grapheme", maxLength: 200 }), { nil: null })
      .filter((text) => text === null || new TextEncoder().encode(text).length <= 200);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), memo, (amount, text) => {
        const sealed = seal(amount, text, sender, recipient);
        expect(sealed).toHaveLength(420);
        expect(Buffer.from(sealed, "base64")).toHaveLength(SEALED_DETAILS_LENGTH);
        const opened = openTransferDetails({ sealed, viewer: recipient, boundTo });
        expect(opened.amount).toBe(amount);
        expect(opened.memo).toBe(text === "" ? null : text);
      }),
      { numRuns: 30 },
    );
  });

  it("Given a third party's keys, then not_yours", () => {
    const sealed = seal(5n, "rent", sender, recipient);
    expect(refusal(() => openTransferDetails({ sealed, viewer: outsider, boundTo }))).toBe("not_yours");
  });

  it("Given any altered byte, or another resource id, then it is refused", () => {
    const sealed = seal(5n, "rent", sender, recipient);
    const bytes = Buffer.from(sealed, "base64");
    for (const index of [0, 1, 40, 70, 81, 100, SEALED_DETAILS_LENGTH - 1]) {
      const altered = Buffer.from(bytes);
      altered[index] = (altered[index] ?? 0) ^ 0x01;
      const outcome = refusal(() =>
        openTransferDetails({ sealed: altered.toString("base64"), viewer: recipient, boundTo }),
      );
      // A changed pubkey can make the viewer a stranger to it; every other change fails authentication.
      expect(["malformed", "not_yours"]).toContain(outcome);
    }
    expect(refusal(() => openTransferDetails({ sealed, viewer: recipient, boundTo: "tr_other" }))).toBe(
      "malformed",
    );
    expect(refusal(() => openTransferDetails({ sealed: sealed.slice(4), viewer: recipient, boundTo }))).toBe(
      "malformed",
    );
  });

  it("Given bad input to seal, then RangeError and nothing sealed", () => {
    expect(() => seal(-1n, null, sender, recipient)).toThrow(RangeError);
    expect(() => seal(1n << 64n, null, sender, recipient)).toThrow(RangeError);
    expect(() => seal(1n, "x".repeat(201), sender, recipient)).toThrow(RangeError);
    const mismatched = { ...sender, elgamalPubkey: recipient.elgamalPubkey };
    expect(() => seal(1n, null, mismatched, recipient)).toThrow(RangeError);
  });

  it("Given one opener over envelopes with several counterparties, then each opens exactly as a one-shot open does, and a third party's stays not_yours", () => {
    const open = detailsOpenerFor(recipient);
    const others = [sender, keys(4), sender, keys(5), keys(4)];
    for (const [index, from] of others.entries()) {
      const bound = `tr_01J111111111111111111111${index}B`;
      const sealed = seal(BigInt(1_000 + index), `memo ${index}`, from, recipient, bound);
      expect(open(sealed, bound)).toEqual(openTransferDetails({ sealed, viewer: recipient, boundTo: bound }));
      expect(open(sealed, bound).amount).toBe(BigInt(1_000 + index));
      // The remembered point is the counterparty's: another resource id still refuses
      expect(refusal(() => open(sealed, boundTo))).toBe("malformed");
    }
    expect(refusal(() => open(seal(7n, null, sender, outsider), boundTo))).toBe("not_yours");
  });
});
