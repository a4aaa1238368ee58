import {
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SolanaError,
} from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { describe, expect, it } from "vitest";
import { readIdl } from "../../scripts/idl-layout";
import {
  AGENT_POLICY_ERROR__DAILY_LIMIT_EXCEEDED,
  AGENT_POLICY_ERROR__INVALID_INSTRUCTION_DATA,
  AGENT_POLICY_PROGRAM_ADDRESS,
} from "../generated";
import { getAgentPolicyErrorDetails, getAgentPolicyErrorFromTransactionError } from "./errors";

describe("program errors", () => {
  it("maps Solana's JSON transaction error to the IDL's name and message", () => {
    // Given a failed transaction's err as RPC and the cluster port return it
    const err = { InstructionError: [1, { Custom: 6025 }] };
    // When mapped / Then the program error, 1:1 with the IDL
    expect(getAgentPolicyErrorFromTransactionError(err)).toEqual({
      code: AGENT_POLICY_ERROR__DAILY_LIMIT_EXCEEDED,
      name: "DailyLimitExceeded",
      message: "The amount would exceed the daily limit",
      instructionIndex: 1,
    });
  });

  it("maps kit's SolanaError, also as the cause of a preflight failure", () => {
    const custom = new SolanaError(SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM, { code: 6000, index: 0 });
    expect(getAgentPolicyErrorFromTransactionError(custom)?.name).toBe("InvalidInstructionData");
    const preflight = new SolanaError(
      SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
      {
        cause: custom,
      } as never,
    );
    expect(getAgentPolicyErrorFromTransactionError(preflight)?.code).toBe(
      AGENT_POLICY_ERROR__INVALID_INSTRUCTION_DATA,
    );
  });

  it("returns null for what is not one of our errors", () => {
    expect(getAgentPolicyErrorFromTransactionError({ InstructionError: [0, { Custom: 1 }] })).toBeNull();
    expect(getAgentPolicyErrorFromTransactionError({ InstructionError: [0, { Custom: 6999 }] })).toBeNull();
    expect(
      getAgentPolicyErrorFromTransactionError({ InstructionError: [0, "InvalidAccountData"] }),
    ).toBeNull();
    expect(getAgentPolicyErrorFromTransactionError("BlockhashNotFound")).toBeNull();
    expect(getAgentPolicyErrorFromTransactionError(null)).toBeNull();
  });

  it("refuses a code raised by another program's instruction when the instructions are known", () => {
    const err = { InstructionError: [1, { Custom: 6000 }] };
    const context = {
      instructionProgramAddresses: [AGENT_POLICY_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS],
    };
    expect(getAgentPolicyErrorFromTransactionError(err, context)).toBeNull();
    expect(
      getAgentPolicyErrorFromTransactionError({ InstructionError: [0, { Custom: 6000 }] }, context),
    ).not.toBeNull();
  });

  it("knows every IDL error code, name and message, and nothing else", () => {
    const idl = readIdl();
    for (const error of idl.errors ?? []) {
      expect(getAgentPolicyErrorDetails(error.code)).toEqual({ name: error.name, message: error.msg });
    }
    expect(getAgentPolicyErrorDetails(5999)).toBeNull();
    expect(getAgentPolicyErrorDetails(6000 + (idl.errors ?? []).length)).toBeNull();
  });
});
