/**
 * JSON-RPC error answers -> SubmissionRejected kinds: the inverse of what the localnet (and agave)
 * answer for each refusal, with a preflight failure's error JSON and logs kept as plain JSON.
 */
import { describe, expect, it } from "vitest";
import { SubmissionRejected } from "./chain-types";
import { RpcResponseError, submissionRejectionOf } from "./rpc-errors";

const preflight = (data: unknown) =>
  submissionRejectionOf(new RpcResponseError(-32002, "Transaction simulation failed: ...", data));

describe("submissionRejectionOf", () => {
  it("Given -32602 on the transaction, When mapped, Then it is malformed with the node's message", () => {
    const refused = submissionRejectionOf(
      new RpcResponseError(-32602, "invalid transaction: too short", null),
    );

    expect(refused).toBeInstanceOf(SubmissionRejected);
    expect(refused).toMatchObject({ kind: "malformed", message: "invalid transaction: too short" });
  });

  it("Given -32003, When mapped, Then it is signature_failure", () => {
    const refused = submissionRejectionOf(
      new RpcResponseError(-32003, "Transaction signature verification failure", null),
    );

    expect(refused).toMatchObject({ kind: "signature_failure" });
  });

  it("Given -32002 naming BlockhashNotFound or AlreadyProcessed, When mapped, Then those kinds carry that error", () => {
    expect(preflight({ err: "BlockhashNotFound", logs: [] })).toMatchObject({
      kind: "blockhash_not_found",
      outcome: { err: "BlockhashNotFound" },
    });
    expect(preflight({ err: "AlreadyProcessed", logs: [] })).toMatchObject({ kind: "already_processed" });
  });

  it("Given -32002 with an instruction error (bigints, as kit parses them), When mapped, Then preflight_failed keeps plain JSON, logs, units, fee and return data", () => {
    const refused = preflight({
      err: { InstructionError: [0n, { Custom: 6001n }] },
      logs: ["Program X invoke [1]", "Program X failed"],
      accounts: null,
      unitsConsumed: 1_234n,
      fee: 5_000n,
      returnData: { programId: "11111111111111111111111111111111", data: ["AQID", "base64"] },
      replacementBlockhash: null,
    }) as SubmissionRejected;

    expect(refused.kind).toBe("preflight_failed");
    expect(refused.outcome).toEqual({
      err: { InstructionError: [0, { Custom: 6001 }] },
      logs: ["Program X invoke [1]", "Program X failed"],
      computeUnitsConsumed: 1_234n,
      fee: 5_000n,
      returnData: { programId: "11111111111111111111111111111111", data: Uint8Array.of(1, 2, 3) },
    });
  });

  it("Given other answers and other errors, When mapped, Then they are returned unchanged", () => {
    const internal = new RpcResponseError(-32603, "Internal error", null);
    const other = new Error("boom");

    expect(submissionRejectionOf(internal)).toBe(internal);
    expect(submissionRejectionOf(other)).toBe(other);
  });
});
