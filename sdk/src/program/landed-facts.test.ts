/**
 * One reading of a landed transaction for every observer: the program's events as facts, in order,
 * with the instruction that stated them; a failed transaction has no facts, only the rule that
 * refused it.
 */
import { address, type Encoder, type ReadonlyUint8Array } from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { describe, expect, it } from "vitest";
import {
  AGENT_POLICY_PROGRAM_ADDRESS,
  CONFIDENTIAL_TRANSFER_EXECUTED_EVENT_DISCRIMINATOR,
  CONFIG_INITIALIZED_EVENT_DISCRIMINATOR,
  getConfidentialTransferExecutedEncoder,
  getConfigInitializedEncoder,
  getPolicyUpdatedEncoder,
  getServiceTransferRecordedEncoder,
  getTransactionApprovedEncoder,
  getTransactionExpiredEncoder,
  getTransactionHeldEncoder,
  getTransactionRejectedEncoder,
  getTransferExecutedEncoder,
  POLICY_UPDATED_EVENT_DISCRIMINATOR,
  SERVICE_TRANSFER_RECORDED_EVENT_DISCRIMINATOR,
  TRANSACTION_APPROVED_EVENT_DISCRIMINATOR,
  TRANSACTION_EXPIRED_EVENT_DISCRIMINATOR,
  TRANSACTION_HELD_EVENT_DISCRIMINATOR,
  TRANSACTION_REJECTED_EVENT_DISCRIMINATOR,
  TRANSFER_EXECUTED_EVENT_DISCRIMINATOR,
} from "../generated";
import { landedFacts } from "./landed-facts";

const PROGRAM = AGENT_POLICY_PROGRAM_ADDRESS;
const A = address("8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf");
const B = address("6Tq3cVBZfqLdUk1szjxGkgYMmovYBnjwXhrzQoZJHi9p");
const C = address("HzwqbKZw8HxMN6bF2yFZNrht3c2iXXzpKcFu7uBEDKtr");
const ID = Uint8Array.from({ length: 16 }, (_, i) => i + 1);

/** The `Program data:` line of one event: its discriminator, then its body. */
function dataLine<T>(discriminator: ReadonlyUint8Array, encoder: Encoder<T>, body: T): string {
  return `Program data: ${Buffer.from([...discriminator, ...encoder.encode(body)]).toString("base64")}`;
}

/** Our program's instruction logging `lines`. */
const ours = (...lines: string[]) => [
  `Program ${PROGRAM} invoke [1]`,
  ...lines,
  `Program ${PROGRAM} success`,
];

const moved = { transferId: ID, source: B, destination: C, mint: TOKEN_2022_PROGRAM_ADDRESS };
const hold = { agent: A, pending: B, transferId: ID };

describe("landedFacts", () => {
  it("Given a landed transaction of every kind of event, Then each is its fact, in order, with its instruction", () => {
    const logs = [
      ...ours(
        dataLine(SERVICE_TRANSFER_RECORDED_EVENT_DISCRIMINATOR, getServiceTransferRecordedEncoder(), {
          ...moved,
          sender: A,
          confidential: true,
          memo: new Uint8Array([1]),
        }),
        dataLine(TRANSFER_EXECUTED_EVENT_DISCRIMINATOR, getTransferExecutedEncoder(), {
          ...moved,
          agent: A,
          fromHold: true,
        }),
      ),
      ...ours(
        dataLine(
          CONFIDENTIAL_TRANSFER_EXECUTED_EVENT_DISCRIMINATOR,
          getConfidentialTransferExecutedEncoder(),
          { ...moved, agent: A, fromHold: false },
        ),
        dataLine(TRANSACTION_HELD_EVENT_DISCRIMINATOR, getTransactionHeldEncoder(), {
          ...hold,
          nonce: 3n,
          expiresAt: 1_700_086_400n,
        }),
        dataLine(TRANSACTION_APPROVED_EVENT_DISCRIMINATOR, getTransactionApprovedEncoder(), hold),
        dataLine(TRANSACTION_REJECTED_EVENT_DISCRIMINATOR, getTransactionRejectedEncoder(), hold),
        dataLine(TRANSACTION_EXPIRED_EVENT_DISCRIMINATOR, getTransactionExpiredEncoder(), hold),
        dataLine(POLICY_UPDATED_EVENT_DISCRIMINATOR, getPolicyUpdatedEncoder(), {
          agent: A,
          policy: C,
          version: 2,
          updatedAt: 5n,
        }),
        dataLine(CONFIG_INITIALIZED_EVENT_DISCRIMINATOR, getConfigInitializedEncoder(), {
          admin: A,
          registrar: B,
        }),
      ),
    ];

    const landed = landedFacts({ err: null, logs });

    const transfer = { transferId: ID, source: B, destination: C, mint: TOKEN_2022_PROGRAM_ADDRESS };
    const decided = { kind: "hold_decided", instructionIndex: 1, transferId: ID, agent: A, pending: B };
    expect(landed).toEqual({
      facts: [
        {
          ...transfer,
          kind: "transfer_executed",
          event: "ServiceTransferRecorded",
          instructionIndex: 0,
          by: "record",
          sender: A,
          confidential: true,
          fromHold: false,
        },
        {
          ...transfer,
          kind: "transfer_executed",
          event: "TransferExecuted",
          instructionIndex: 0,
          by: "agent",
          sender: A,
          confidential: false,
          fromHold: true,
        },
        {
          ...transfer,
          kind: "transfer_executed",
          event: "ConfidentialTransferExecuted",
          instructionIndex: 1,
          by: "agent",
          sender: A,
          confidential: true,
          fromHold: false,
        },
        {
          kind: "transfer_held",
          event: "TransactionHeld",
          instructionIndex: 1,
          transferId: ID,
          agent: A,
          pending: B,
          expiresAt: 1_700_086_400n,
        },
        { ...decided, event: "TransactionApproved", decision: "approved" },
        { ...decided, event: "TransactionRejected", decision: "rejected" },
        { ...decided, event: "TransactionExpired", decision: "expired" },
        { kind: "policy_updated", event: "PolicyUpdated", instructionIndex: 1, agent: A },
        { kind: "other", event: "ConfigInitialized", instructionIndex: 1 },
      ],
      truncated: false,
      refusal: null,
    });
  });

  it("Given a failed transaction whose logs still show events, Then it has no facts, only the rule that refused it", () => {
    const logs = [
      ...ours(
        dataLine(TRANSACTION_HELD_EVENT_DISCRIMINATOR, getTransactionHeldEncoder(), {
          ...hold,
          nonce: 1n,
          expiresAt: 9n,
        }),
      ),
      `Program ${PROGRAM} invoke [1]`,
      `Program ${PROGRAM} failed: custom program error: 0x1789`,
    ];
    const err = { InstructionError: [1, { Custom: 6025 }] };

    expect(landedFacts({ err, logs })).toEqual({
      facts: [],
      truncated: false,
      refusal: {
        code: 6025,
        name: "DailyLimitExceeded",
        message: "The amount would exceed the daily limit",
        instructionIndex: 1,
      },
    });
    // The same code raised by another program's instruction is no rule of ours.
    const otherProgram = landedFacts(
      { err, logs },
      { instructionProgramAddresses: [PROGRAM, TOKEN_2022_PROGRAM_ADDRESS] },
    );
    expect(otherProgram.refusal).toBeNull();
    expect(landedFacts({ err: { InstructionError: [0, "InvalidAccountData"] }, logs }).refusal).toBeNull();
  });

  it("Given logs the runtime cut short, Then the facts before the cut are kept and the cut is reported", () => {
    const logs = [
      `Program ${PROGRAM} invoke [1]`,
      dataLine(POLICY_UPDATED_EVENT_DISCRIMINATOR, getPolicyUpdatedEncoder(), {
        agent: A,
        policy: C,
        version: 1,
        updatedAt: 1n,
      }),
      "Log truncated",
    ];

    const landed = landedFacts({ err: null, logs });

    expect(landed.facts.map((fact) => fact.kind)).toEqual(["policy_updated"]);
    expect(landed.truncated).toBe(true);
  });
});
