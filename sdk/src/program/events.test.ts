import { address, type ReadonlyUint8Array } from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { describe, expect, it } from "vitest";
import {
  AGENT_POLICY_PROGRAM_ADDRESS,
  CONFIG_INITIALIZED_EVENT_DISCRIMINATOR,
  getConfigInitializedEncoder,
  getServiceTransferRecordedEncoder,
  getTransactionHeldEncoder,
  SERVICE_TRANSFER_RECORDED_EVENT_DISCRIMINATOR,
  TRANSACTION_HELD_EVENT_DISCRIMINATOR,
} from "../generated";
import { EventLogError, parseAgentPolicyEvents } from "./events";

const PROGRAM = AGENT_POLICY_PROGRAM_ADDRESS;
const COMPUTE_BUDGET = "ComputeBudget111111111111111111111111111111";
const OTHER = "HzwqbKZw8HxMN6bF2yFZNrht3c2iXXzpKcFu7uBEDKtr";
const A = address("8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf");
const B = address("6Tq3cVBZfqLdUk1szjxGkgYMmovYBnjwXhrzQoZJHi9p");
const TRANSFER_ID = Uint8Array.from({ length: 16 }, (_, i) => i + 1);

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const payload = (discriminator: ReadonlyUint8Array, body: ReadonlyUint8Array) =>
  new Uint8Array([...discriminator, ...body]);
const dataLine = (bytes: Uint8Array) => `Program data: ${base64(bytes)}`;

const configInitialized = payload(
  CONFIG_INITIALIZED_EVENT_DISCRIMINATOR,
  new Uint8Array(getConfigInitializedEncoder().encode({ admin: A, registrar: B })),
);
const held = payload(
  TRANSACTION_HELD_EVENT_DISCRIMINATOR,
  new Uint8Array(
    getTransactionHeldEncoder().encode({
      agent: A,
      pending: B,
      nonce: 7n,
      transferId: TRANSFER_ID,
      expiresAt: 1_700_000_000n,
    }),
  ),
);
const recorded = payload(
  SERVICE_TRANSFER_RECORDED_EVENT_DISCRIMINATOR,
  new Uint8Array(
    getServiceTransferRecordedEncoder().encode({
      transferId: TRANSFER_ID,
      sender: A,
      source: B,
      destination: A,
      mint: B,
      confidential: true,
      memo: new Uint8Array([9, 9, 9]),
    }),
  ),
);

describe("program events from logs", () => {
  it("decodes our events with the instruction they belong to", () => {
    // Given a transaction: a compute-budget instruction, then two of ours, one of which CPIs Token-2022
    const logs = [
      `Program ${COMPUTE_BUDGET} invoke [1]`,
      `Program ${COMPUTE_BUDGET} success`,
      `Program ${PROGRAM} invoke [1]`,
      "Program log: Instruction: config_initialize",
      dataLine(configInitialized),
      `Program ${PROGRAM} consumed 9000 of 200000 compute units`,
      `Program ${PROGRAM} success`,
      `Program ${PROGRAM} invoke [1]`,
      `Program ${TOKEN_2022_PROGRAM_ADDRESS} invoke [2]`,
      dataLine(held), // a callee's data line: not ours even though it decodes
      `Program ${TOKEN_2022_PROGRAM_ADDRESS} success`,
      dataLine(held),
      `Program ${PROGRAM} success`,
    ];
    // When parsed
    const { events, unrecognized, truncated } = parseAgentPolicyEvents(logs);
    // Then our two events, with their top-level instruction index, and nothing from Token-2022
    expect(events).toEqual([
      { name: "ConfigInitialized", data: { admin: A, registrar: B }, instructionIndex: 1 },
      {
        name: "TransactionHeld",
        data: { agent: A, pending: B, nonce: 7n, transferId: TRANSFER_ID, expiresAt: 1_700_000_000n },
        instructionIndex: 2,
      },
    ]);
    expect(unrecognized).toEqual([]);
    expect(truncated).toBe(false);
  });

  it("attributes data lines to our program when another program invokes it", () => {
    const logs = [
      `Program ${OTHER} invoke [1]`,
      dataLine(recorded), // the caller's own data line
      `Program ${PROGRAM} invoke [2]`,
      dataLine(recorded),
      `Program ${PROGRAM} success`,
      dataLine(configInitialized), // back in the caller
      `Program ${OTHER} success`,
    ];
    const { events } = parseAgentPolicyEvents(logs);
    expect(events.map((event) => event.name)).toEqual(["ServiceTransferRecorded"]);
    expect(events[0]).toMatchObject({
      data: { confidential: true, memo: new Uint8Array([9, 9, 9]) },
      instructionIndex: 0,
    });
  });

  it("ignores lines after our program failed and returned to its caller", () => {
    const logs = [
      `Program ${PROGRAM} invoke [1]`,
      `Program ${TOKEN_2022_PROGRAM_ADDRESS} invoke [2]`,
      `Program ${TOKEN_2022_PROGRAM_ADDRESS} failed: custom program error: 0x1`,
      `Program ${PROGRAM} failed: custom program error: 0x1`,
      dataLine(configInitialized), // no program on the stack
    ];
    expect(parseAgentPolicyEvents(logs).events).toEqual([]);
  });

  it("joins the space-separated parts of a multi-slice sol_log_data entry", () => {
    const parts = `${base64(configInitialized.subarray(0, 8))} ${base64(configInitialized.subarray(8))}`;
    const logs = [`Program ${PROGRAM} invoke [1]`, `Program data: ${parts}`, `Program ${PROGRAM} success`];
    expect(parseAgentPolicyEvents(logs).events[0]?.name).toBe("ConfigInitialized");
  });

  it("reports unknown discriminators and truncated logs instead of dropping them silently", () => {
    const unknown = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 42]);
    const logs = [`Program ${PROGRAM} invoke [1]`, dataLine(unknown), "Log truncated"];
    const parsed = parseAgentPolicyEvents(logs);
    expect(parsed.unrecognized).toEqual([{ instructionIndex: 0, data: unknown }]);
    expect(parsed.truncated).toBe(true);
  });

  it("fails loudly on our data lines that are not base64 or too short for their event", () => {
    const notBase64 = [`Program ${PROGRAM} invoke [1]`, "Program data: not*base64"];
    expect(() => parseAgentPolicyEvents(notBase64)).toThrow(EventLogError);
    const short = [`Program ${PROGRAM} invoke [1]`, dataLine(configInitialized.subarray(0, 20))];
    expect(() => parseAgentPolicyEvents(short)).toThrow(EventLogError);
  });

  it("watches another program id when asked", () => {
    const logs = [`Program ${OTHER} invoke [1]`, dataLine(configInitialized), `Program ${OTHER} success`];
    expect(parseAgentPolicyEvents(logs).events).toEqual([]);
    expect(parseAgentPolicyEvents(logs, { programAddress: address(OTHER) }).events).toHaveLength(1);
  });
});
