import { describe, expect, it } from "vitest";
import { sealAmountToViewer } from "./seal-to-viewer";
import { openTransferDetails, SEALED_DETAILS_LENGTH } from "./transfer-details";
import { deriveViewingKeys } from "./viewing-keys";

const viewer = deriveViewingKeys(new Uint8Array(32).fill(4));
const stranger = deriveViewingKeys(new Uint8Array(32).fill(5));

describe("sealing an amount to one viewer from an ephemeral key", () => {
  it("Given an amount sealed to the viewer, then the viewer opens exactly it, as received, with no memo", () => {
    const sealed = sealAmountToViewer({
      amount: 12_345_678n,
      viewerPubkey: viewer.elgamalPubkey,
      boundTo: "budget:a:1",
    });
    expect(Buffer.from(sealed, "base64").length).toBe(SEALED_DETAILS_LENGTH);
    expect(openTransferDetails({ sealed, viewer, boundTo: "budget:a:1" })).toEqual({
      amount: 12_345_678n,
      memo: null,
      direction: "received",
    });
  });

  it("Given two seals of one amount, then their sender keys differ (a fresh ephemeral key each)", () => {
    const seal = () =>
      Buffer.from(
        sealAmountToViewer({ amount: 0n, viewerPubkey: viewer.elgamalPubkey, boundTo: "x" }),
        "base64",
      );
    expect(seal().subarray(1, 33).equals(seal().subarray(1, 33))).toBe(false);
  });

  it("Given another key or another binding, then not_yours or malformed", () => {
    const sealed = sealAmountToViewer({
      amount: 1n,
      viewerPubkey: viewer.elgamalPubkey,
      boundTo: "budget:a:1",
    });
    expect(() => openTransferDetails({ sealed, viewer: stranger, boundTo: "budget:a:1" })).toThrow(
      expect.objectContaining({ code: "not_yours" }),
    );
    expect(() => openTransferDetails({ sealed, viewer, boundTo: "budget:a:2" })).toThrow(
      expect.objectContaining({ code: "malformed" }),
    );
  });

  it("Given an amount outside u64, then RangeError", () => {
    expect(() =>
      sealAmountToViewer({ amount: 1n << 64n, viewerPubkey: viewer.elgamalPubkey, boundTo: "x" }),
    ).toThrow(RangeError);
  });
});
