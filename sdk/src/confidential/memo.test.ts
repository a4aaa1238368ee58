import { describe, expect, it } from "vitest";
import { MAX_MEMO_BYTES as MAX_RECORD_MEMO_BYTES } from "../program/instructions";
import { isConfidentialError } from "./errors";
import { deriveConfidentialKeys } from "./keys";
import { randomKeysets } from "./keys.test-support";
import { decryptMemo, encryptMemo, MAX_MEMO_PLAINTEXT_BYTES, MEMO_BUCKETS } from "./memo";

const [sender, recipient, outsider] = randomKeysets(3);
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

  it("Given a memo, then it is its bucket plus 33 bytes and does not contain the plaintext", () => {
    expect(text.length).toBeLessThan(32);
    expect(envelope).toHaveLength(32 + 33);
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

  it("Given each bucket's edges, then the envelope is that bucket plus 33 bytes, the largest exactly the program's 256", () => {
    expect(MEMO_BUCKETS.at(-1)).toBe(MAX_RECORD_MEMO_BYTES - 33);
    const sizes = [0, 31, 32, 63, 64, 127, 128, MAX_MEMO_PLAINTEXT_BYTES];
    // Plaintexts of zeros and of marker bytes, which the padding must not confuse with itself.
    for (const fill of [0x00, 0x80]) {
      const lengths = sizes.map((size) => {
        const plaintext = new Uint8Array(size).fill(fill);
        const sealed = encryptMemo({
          plaintext,
          senderKeys: sender,
          recipientPubkey: recipient.elgamalPubkey,
        });
        expect(Buffer.from(decryptMemo({ envelope: sealed, keys: recipient, parties }))).toEqual(
          Buffer.from(plaintext),
        );
        return sealed.length;
      });
      expect(lengths).toEqual([65, 65, 97, 97, 161, 161, 256, 256]);
    }
  });

  it("Given an empty memo and a maximal one, then both round-trip; a larger one is refused", () => {
    for (const size of [0, MAX_MEMO_PLAINTEXT_BYTES]) {
      const plaintext = new Uint8Array(size).fill(65);
      const sealed = encryptMemo({ plaintext, senderKeys: sender, recipientPubkey: recipient.elgamalPubkey });
      expect(decryptMemo({ envelope: sealed, keys: recipient, parties })).toHaveLength(size);
    }
    expect(() =>
      encryptMemo({
        plaintext: new Uint8Array(MAX_MEMO_PLAINTEXT_BYTES + 1),
        senderKeys: sender,
        recipientPubkey: recipient.elgamalPubkey,
      }),
    ).toThrow(RangeError);
  });

  it("Given two memos of different lengths in one bucket, then their envelopes have the same length", () => {
    const seal = (size: number) =>
      encryptMemo({
        plaintext: new Uint8Array(size).fill(66),
        senderKeys: sender,
        recipientPubkey: recipient.elgamalPubkey,
      });
    const short = seal(3);
    const longer = seal(20);
    expect(longer).toHaveLength(short.length);
    expect(decryptMemo({ envelope: short, keys: recipient, parties })).toHaveLength(3);
    expect(decryptMemo({ envelope: longer, keys: recipient, parties })).toHaveLength(20);
  });

  it("Given an envelope of the first format (no padding), then it still decrypts", () => {
    // Written by the first format from fixed secrets (0x11... sender, 0x22... recipient).
    const first = {
      sender: deriveConfidentialKeys(new Uint8Array(32).fill(0x11)),
      recipient: deriveConfidentialKeys(new Uint8Array(32).fill(0x22)),
      envelope: Buffer.from(
        "011475ea2a9b900b6927d868c9ee1f0e34e510b86db0d77a7958a0453a4253fe6b7c2e9c51c69a444e36e8c6a7d64ae878bfe27095cd1c9da14af3fc",
        "hex",
      ),
    };
    const plaintext = decryptMemo({
      envelope: first.envelope,
      keys: first.recipient,
      parties: { senderPubkey: first.sender.elgamalPubkey, recipientPubkey: first.recipient.elgamalPubkey },
      associatedData: Buffer.from("transfer-1"),
    });
    expect(new TextDecoder().decode(plaintext)).toBe("invoice 2026-114: GPU hours");
  });

  it("Given the identity as recipient key (which would make the key public), then encryption is refused", () => {
    expect(() =>
      encryptMemo({ plaintext: text, senderKeys: sender, recipientPubkey: new Uint8Array(32) }),
    ).toThrow(RangeError);
  });
});
