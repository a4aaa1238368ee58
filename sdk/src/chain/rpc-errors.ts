/**
 * JSON-RPC error answers as the chain port reports them.
 *
 * A submission the node refused becomes `SubmissionRejected`, by the inverse of the mapping the
 * localnet (and agave) answers with: -32602 on the transaction parameter -> `malformed`; -32003 ->
 * `signature_failure`; -32002 (preflight failure, the simulation in `data`) -> `blockhash_not_found`
 * or `already_processed` when `data.err` says so, else `preflight_failed` with the simulation's
 * error JSON and logs as its outcome. Any other error answer stays an `RpcResponseError`.
 */
import { type ExecutionOutcome, SubmissionRejected } from "./chain-types";
import { simulationOf } from "./rpc-normalize";

/** JSON-RPC codes the port reads (Solana's server codes and JSON-RPC 2.0's). */
export const JSON_RPC_CODES = {
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SEND_TRANSACTION_PREFLIGHT_FAILURE: -32002,
  TRANSACTION_SIGNATURE_VERIFICATION_FAILURE: -32003,
} as const;

/** The node answered a request with a JSON-RPC error object (code, message, `data` as plain JSON). */
export class RpcResponseError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
    this.name = "RpcResponseError";
  }
}

/** The simulation a -32002 carries in `data`, as an outcome (logs included). */
function preflightOutcome(data: unknown): ExecutionOutcome {
  const { replacementBlockhash: _, ...outcome } = simulationOf(data ?? {}, "error.data");
  return outcome;
}

/**
 * The refusal of sendTransaction/simulateTransaction as SubmissionRejected (see the module doc);
 * anything that is not a refusal of the transaction is returned unchanged.
 */
export function submissionRejectionOf(error: unknown): unknown {
  if (!(error instanceof RpcResponseError)) return error;
  switch (error.code) {
    case JSON_RPC_CODES.INVALID_PARAMS:
      // The port sends a fixed, valid config: the one parameter that can be wrong is the transaction.
      return new SubmissionRejected("malformed", error.message);
    case JSON_RPC_CODES.TRANSACTION_SIGNATURE_VERIFICATION_FAILURE:
      return new SubmissionRejected("signature_failure", error.message);
    case JSON_RPC_CODES.SEND_TRANSACTION_PREFLIGHT_FAILURE: {
      const outcome = preflightOutcome(error.data);
      if (outcome.err === "BlockhashNotFound") {
        return new SubmissionRejected("blockhash_not_found", error.message, outcome);
      }
      if (outcome.err === "AlreadyProcessed") {
        return new SubmissionRejected("already_processed", error.message, outcome);
      }
      return new SubmissionRejected("preflight_failed", error.message, outcome);
    }
    default:
      return error;
  }
}
