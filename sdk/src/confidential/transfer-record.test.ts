import { type Address, address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import {
  AGENT_POLICY_PROGRAM_ADDRESS,
  getServiceTransferRecordedEncoder,
  SERVICE_TRANSFER_RECORDED_EVENT_DISCRIMINATOR,
} from "../generated";
import { isConfidentialError } from "./errors";
import { randomKeysets } from "./keys.test-support";
import { encryptMemo, MAX_MEMO_PLAINTEXT_BYTES } from "./memo";
import { findTransferRecords, readTransferMemo } from "./read-transfer-memo";
import {
  checkTransferRecord,
  type TransferRecordFields,
  transferMemoAssociatedData,
} from "./transfer-record";

const PROGRAM = AGENT_POLICY_PROGRAM_ADDRESS;
const OTHER = "HzwqbKZw8HxMN6bF2yFZNrht3c2iXXzpKcFu7uBEDKtr";
const A = address("8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf");
const B = address("6Tq3cVBZfqLdUk1szjxGkgYMmovYBnjwXhrzQoZJHi9p");
const id = (n: number) => Uint8Array.from({ length: 16 }, (_, i) => (i === 15 ? n : 0));

const [sender, recipient] = randomKeysets(2);
const parties = { senderPubkey: sender.elgamalPubkey, recipientPubkey: recipient.elgamalPubkey };

function fields(
  transferId: Uint8Array,
): TransferRecordFields & Record<"sender" | "source" | "destination" | "mint", Address> {
  return { transferId, sender: A, source: B, destination: A, mint: B, confidential: true };
}

/** The logs of a successful instruction of ours emitting ServiceTransferRecorded. */
function recordLogs(transferId: Uint8Array, memo: string | null): string[] {
  const envelope =
    memo === null
      ? new Uint8Array(0)
      : encryptMemo({
          plaintext: new TextEncoder().encode(memo),
          senderKeys: sender,
          recipientPubkey: recipient.elgamalPubkey,
          associatedData: transferMemoAssociatedData(fields(transferId)),
        });
  const body = getServiceTransferRecordedEncoder().encode({ ...fields(transferId), memo: envelope });
  const data = Buffer.from([...SERVICE_TRANSFER_RECORDED_EVENT_DISCRIMINATOR, ...body]).toString("base64");
  return [`Program ${PROGRAM} invoke [1]`, `Program data: ${data}`, `Program ${PROGRAM} success`];
}

const code = (attempt: () => unknown): string | undefined => {
  try {
    attempt();
    return undefined;
  } catch (error) {
    return isConfidentialError(error) ? error.code : "untyped";
  }
};

describe("transfer record requests", () => {
  it("Given memos, then the limit is 222 UTF-8 bytes (256 less the 33-byte envelope and the padding marker)", () => {
    expect(MAX_MEMO_PLAINTEXT_BYTES).toBe(222);
    expect(checkTransferRecord({ transferId: id(1), memo: "a".repeat(222) }).memo).toHaveLength(222);
    expect(code(() => checkTransferRecord({ transferId: id(1), memo: "a".repeat(223) }))).toBe(
      "memo_too_long",
    );
    expect(code(() => checkTransferRecord({ transferId: id(1), memo: "€".repeat(75) }))).toBe(
      "memo_too_long",
    );
    expect(checkTransferRecord({ transferId: id(1) }).memo).toBeNull();
  });

  it("Given a transfer id that is not 16 bytes or a key that is not 32, then invalid_transfer_record", () => {
    expect(code(() => checkTransferRecord({ transferId: new Uint8Array(15) }))).toBe(
      "invalid_transfer_record",
    );
    expect(
      code(() => checkTransferRecord({ transferId: id(1), recipientElgamalPubkey: new Uint8Array(31) })),
    ).toBe("invalid_transfer_record");
  });

  it("Given the associated data, then its layout is pinned: domain, id, four addresses, flag", () => {
    const aad = transferMemoAssociatedData(fields(id(7)));
    expect(aad).toHaveLength("cpay/transfer-record/memo/v1".length + 16 + 4 * 32 + 1);
    expect(aad.at(-1)).toBe(1);
    expect(transferMemoAssociatedData({ ...fields(id(7)), confidential: false }).at(-1)).toBe(0);
  });
});

describe("reading a record's memo from logs", () => {
  it("Given a record, then either party reads it and an outsider gets memo_undecryptable", () => {
    const logs = recordLogs(id(1), "hello");
    expect(readTransferMemo({ transaction: logs, keys: sender, parties }).memoText).toBe("hello");
    expect(readTransferMemo({ transaction: logs, keys: recipient, parties }).memoText).toBe("hello");
    const [outsider] = randomKeysets(1);
    expect(code(() => readTransferMemo({ transaction: logs, keys: outsider, parties }))).toBe(
      "memo_undecryptable",
    );
  });

  it("Given a failed transaction, then it has no records", () => {
    const logs = recordLogs(id(1), "hello");
    expect(findTransferRecords({ logs, err: { InstructionError: [1, { Custom: 1 }] } })).toEqual([]);
    const failedLater = [
      ...logs,
      `Program ${OTHER} invoke [1]`,
      `Program ${OTHER} failed: custom program error: 0x1`,
    ];
    expect(findTransferRecords(failedLater)).toEqual([]);
    expect(code(() => readTransferMemo({ transaction: failedLater, keys: sender, parties }))).toBe(
      "transfer_record_not_found",
    );
  });

  it("Given several records, then the transfer id picks one; without it the read is refused", () => {
    const logs = [...recordLogs(id(1), "one"), ...recordLogs(id(2), "two")];
    expect(
      readTransferMemo({ transaction: logs, keys: recipient, parties, transferId: id(2) }).memoText,
    ).toBe("two");
    expect(code(() => readTransferMemo({ transaction: logs, keys: recipient, parties }))).toBe(
      "transfer_record_not_found",
    );
    expect(
      code(() => readTransferMemo({ transaction: logs, keys: recipient, parties, transferId: id(3) })),
    ).toBe("transfer_record_not_found");
  });

  it("Given a record without a memo, then the memo is null", () => {
    const read = readTransferMemo({ transaction: recordLogs(id(1), null), keys: sender, parties });
    expect(read.memo).toBeNull();
    expect(read.memoText).toBeNull();
  });

  it("Given data logged by another program, then it is not a record", () => {
    const logs = recordLogs(id(1), "x").map((line) => line.replace(PROGRAM, OTHER));
    expect(findTransferRecords(logs)).toEqual([]);
  });
});
