import { describe, expect, it } from "vitest";
import { isConfidentialError } from "./errors";
import { deriveConfidentialKeys, generateConfidentialSecret } from "./keys";
import { decryptMemo, encryptMemo, MAX_MEMO_BYTES } from "./memo";

const sender = deriveConfidentialKeys(generateConfidentialSecret());
const recipient = deriveConfidentialKeys(generateConfidentialSecret());
const outsider = deriveConfidentialKeys(generateConfidentialSecret());
const parties = { senderPubkey: sender.elgamalPubkey, recipientPubkey: recipient.elgamalPubkey };
const text = new TextEncoder().encode("invoice 2026-114: GPU hours");

const undecryptable = (attempt: () => unknown) => {
  try {
    attempt();
    return false;
  } catch (error) {
    return isConfidentialError(error, "memo_undecryptable");
  }
};

describe("encrypted memo", () => {
  const envelope = encryptMemo({
    plaintext: text,
    senderKeys: sender,
    recipientPubkey: recipient.elgamalPubkey,
  });

  it("Given a memo from sender to recipient, then both of them read it", () => {
    expect(Buffer.from(decryptMemo({ envelope, keys: sender, parties }))).toEqual(Buffer.from(text));
    expect(Buffer.from(decryptMemo({ envelope, keys: recipient, parties }))).toEqual(Buffer.from(text));
  });

  it("Given a memo, then it is the plaintext plus 33 bytes and does not contain the plaintext", () => {
    expect(envelope).toHaveLength(text.length + 33);
    expect(Buffer.from(envelope).includes(Buffer.from(text))).toBe(false);
  });

  it("Given a third party's keys, then it cannot read the memo, even claiming to be a party", () => {
    expect(undecryptable(() => decryptMemo({ envelope, keys: outsider, parties }))).toBe(true);
    const claimed = { senderPubkey: outsider.elgamalPubkey, recipientPubkey: recipient.elgamalPubkey };
    expect(undecryptable(() => decryptMemo({ envelope, keys: outsider, parties: claimed }))).toBe(true);
  });

  it("Given any altered byte, then decryption fails", () => {
    for (const index of [0, 1, 17, envelope.length - 1]) {
      const altered = Uint8Array.from(envelope);
      altered[index] = (altered[index] ?? 0) ^ 0x80;
      expect(undecryptable(() => decryptMemo({ envelope: altered, keys: recipient, parties }))).toBe(true);
    }
  });

  it("Given associated data (e.g. the transfer id), then only the same data decrypts it", () => {
    const bound = encryptMemo({
      plaintext: text,
      senderKeys: sender,
      recipientPubkey: recipient.elgamalPubkey,
      associatedData: Buffer.from("transfer-1"),
    });
    const read = (associatedData: string) => () =>
      decryptMemo({ envelope: bound, keys: recipient, parties, associatedData: Buffer.from(associatedData) });
    expect(Buffer.from(read("transfer-1")())).toEqual(Buffer.from(text));
    expect(undecryptable(read("transfer-2"))).toBe(true);
  });

  it("Given the parties swapped (direction reversed), then it does not decrypt", () => {
    const reversed = { senderPubkey: recipient.elgamalPubkey, recipientPubkey: sender.elgamalPubkey };
    expect(undecryptable(() => decryptMemo({ envelope, keys: recipient, parties: reversed }))).toBe(true);
  });

  it("Given the same memo twice, then the envelopes differ (fresh salt, key and nonce)", () => {
    const again = encryptMemo({
      plaintext: text,
      senderKeys: sender,
      recipientPubkey: recipient.elgamalPubkey,
    });
    expect(Buffer.from(again)).not.toEqual(Buffer.from(envelope));
  });

  it("Given an empty memo and a maximal one, then both round-trip; a larger one is refused", () => {
    for (const size of [0, MAX_MEMO_BYTES]) {
      const plaintext = new Uint8Array(size).fill(65);
      const sealed = encryptMemo({ plaintext, senderKeys: sender, recipientPubkey: recipient.elgamalPubkey });
      expect(decryptMemo({ envelope: sealed, keys: recipient, parties })).toHaveLength(size);
    }
    expect(() =>
      encryptMemo({
        plaintext: new Uint8Array(MAX_MEMO_BYTES + 1),
        senderKeys: sender,
        recipientPubkey: recipient.elgamalPubkey,
      }),
    ).toThrow(RangeError);
  });

  it("Given the identity as recipient key (which would make the key public), then encryption is refused", () => {
    expect(() =>
      encryptMemo({ plaintext: text, senderKeys: sender, recipientPubkey: new Uint8Array(32) }),
    ).toThrow(RangeError);
  });
});
