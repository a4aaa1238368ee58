/**
 * Writes and dry runs: sendTransaction, simulateTransaction, requestAirdrop, getFeeForMessage.
 *
 * sendTransaction mirrors agave's split between preflight and submission. With preflight, anything
 * that would keep the transaction from landing is an error now (-32002 with the simulation result in
 * `data`, -32003 for bad signatures). With `skipPreflight` a validator returns the signature and
 * drops what cannot land; so does this localnet, which is what makes a resend of an already-landed
 * transaction (the retry loop of every client) answer with its signature instead of failing.
 */

import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT,
  type DecodedMessage,
  LAMPORTS_PER_SIGNATURE,
  priorityFeeLamports,
  SET_COMPUTE_UNIT_LIMIT,
  SET_COMPUTE_UNIT_PRICE,
} from "@cpay/sdk/chain";
import { getBase64Decoder } from "@solana/kit";
import { type ExecutionOutcome, SubmissionRejected } from "../../cluster/cluster-port";
import { invalidParams, RpcError, RpcErrorCode } from "../json-rpc-errors";
import {
  type Config,
  optionalBoolean,
  optionalConfig,
  optionalU64,
  positional,
  readCommitment,
  readEnum,
  requireAddress,
  requireString,
  requireU64,
} from "../params";
import { type RpcMethod, resolveContextSlot, withContext } from "../rpc-context";
import { innerInstructionsJson } from "../transaction-encoding";
import { transactionErrorText } from "../transaction-error-text";
import { type BinaryEncoding, decodeMessageParam, decodeTransactionParam } from "../transaction-param";

const base64 = getBase64Decoder();

/** `config.encoding` for a transaction payload: agave accepts binary (= base58), base58, base64. */
function readBinaryEncoding(config: Config): BinaryEncoding {
  const encoding = readEnum(
    config,
    "encoding",
    ["binary", "base64", "base58", "json", "jsonParsed"],
    "base58",
  );
  if (encoding === "json" || encoding === "jsonParsed") {
    throw invalidParams(`unsupported encoding: ${encoding}. Supported encodings: base58, base64`);
  }
  return encoding === "base64" ? "base64" : "base58";
}

/** Agave's `RpcSimulateTransactionResult`, as simulateTransaction returns and -32002 carries. */
function simulationResult(
  outcome: ExecutionOutcome,
  replacementBlockhash: unknown = null,
): Record<string, unknown> {
  return {
    err: outcome.err,
    logs: outcome.logs,
    accounts: null,
    unitsConsumed: outcome.computeUnitsConsumed,
    returnData: outcome.returnData
      ? { programId: outcome.returnData.programId, data: [base64.decode(outcome.returnData.data), "base64"] }
      : null,
    innerInstructions: null,
    replacementBlockhash,
    fee: outcome.fee,
  };
}

/** The outcome of a transaction that was refused before executing, in simulation terms. */
function refusedOutcome(err: string): ExecutionOutcome {
  return { err, logs: [], computeUnitsConsumed: 0n, fee: 0n, returnData: null };
}

/**
 * What a refused submission reports: its own outcome, or a validator's error for its kind (a
 * malformed or unsigned one is answered before this is asked).
 */
function refusalOutcome(error: SubmissionRejected): ExecutionOutcome {
  if (error.outcome !== undefined) return error.outcome;
  if (error.kind === "blockhash_not_found") return refusedOutcome("BlockhashNotFound");
  if (error.kind === "already_processed") return refusedOutcome("AlreadyProcessed");
  return refusedOutcome("SanitizeFailure");
}

/** The parameters send and simulate share: `[transaction, config?]` and the config's encoding. */
function transactionParams(params: unknown) {
  const [encoded, rawConfig] = positional(params, 1, 2);
  const text = requireString(encoded, "param 0 (transaction)");
  const config = optionalConfig(rawConfig, "param 1 (config)");
  return { text, config, encoding: readBinaryEncoding(config) };
}

function preflightFailure(outcome: ExecutionOutcome): RpcError {
  const text = outcome.err === null ? "unknown error" : transactionErrorText(outcome.err);
  return new RpcError(
    RpcErrorCode.SEND_TRANSACTION_PREFLIGHT_FAILURE,
    `Transaction simulation failed: ${text}`,
    simulationResult(outcome),
  );
}

const signatureVerificationFailure = (): RpcError =>
  new RpcError(
    RpcErrorCode.TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
    "Transaction signature verification failure",
  );

const sendTransaction: RpcMethod = (params, { cluster }) => {
  const { text, config, encoding } = transactionParams(params);
  const skipPreflight = optionalBoolean(config, "skipPreflight") ?? false;
  optionalU64(config, "maxRetries");
  const preflightCommitment = readCommitment(config, "finalized", "preflightCommitment");
  resolveContextSlot(cluster, { ...config, commitment: preflightCommitment });
  const { wire, transaction } = decodeTransactionParam(text, encoding);
  const { signature } = transaction;
  try {
    return cluster.sendTransaction(wire, { preflight: !skipPreflight });
  } catch (error) {
    if (!(error instanceof SubmissionRejected)) throw error;
    if (error.kind === "malformed") throw invalidParams(`invalid transaction: ${error.message}`);
    // Without preflight a validator answers with the signature and drops what cannot land.
    if (skipPreflight) return signature;
    if (error.kind === "signature_failure") throw signatureVerificationFailure();
    throw preflightFailure(refusalOutcome(error));
  }
};

const simulateTransaction: RpcMethod = (params, { cluster }) => {
  const { text, config, encoding } = transactionParams(params);
  const sigVerify = optionalBoolean(config, "sigVerify") ?? false;
  const replaceRecentBlockhash = optionalBoolean(config, "replaceRecentBlockhash") ?? false;
  const innerInstructions = optionalBoolean(config, "innerInstructions") ?? false;
  if (sigVerify && replaceRecentBlockhash) {
    throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
  }
  const accounts = optionalConfig(config.accounts, "accounts");
  if (Array.isArray(accounts.addresses) && accounts.addresses.length > 0) {
    throw invalidParams(
      "Invalid params: accounts: returning post-simulation account states is not supported by this localnet",
    );
  }
  const { slot } = resolveContextSlot(cluster, config);
  const { wire } = decodeTransactionParam(text, encoding);
  try {
    const result = cluster.simulateTransaction(wire, { sigVerify, replaceRecentBlockhash });
    const latest = cluster.getLatestBlockhash();
    const replacement =
      result.replacementBlockhash === null
        ? null
        : {
            blockhash: result.replacementBlockhash,
            lastValidBlockHeight:
              latest.blockhash === result.replacementBlockhash ? latest.lastValidBlockHeight : null,
          };
    return withContext(slot, {
      ...simulationResult(result, replacement),
      // As Agave: parsed (jsonParsed form) when asked for, null otherwise.
      innerInstructions: innerInstructions
        ? innerInstructionsJson(result.innerInstructions, result.accountKeys)
        : null,
    });
  } catch (error) {
    if (!(error instanceof SubmissionRejected)) throw error;
    if (error.kind === "malformed") throw invalidParams(`invalid transaction: ${error.message}`);
    if (error.kind === "signature_failure") throw signatureVerificationFailure();
    return withContext(slot, simulationResult(refusalOutcome(error)));
  }
};

const requestAirdrop: RpcMethod = (params, { cluster }) => {
  const [address, lamports, rawConfig] = positional(params, 2, 3);
  const key = requireAddress(address, "param 0 (address)");
  const amount = requireU64(lamports, "param 1 (lamports)");
  readCommitment(optionalConfig(rawConfig, "param 2 (config)"));
  try {
    return cluster.requestAirdrop(key, amount);
  } catch (error) {
    // Agave answers any faucet failure with -32603; the reason is worth passing on locally.
    throw new RpcError(
      RpcErrorCode.INTERNAL_ERROR,
      `airdrop failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    );
  }
};

/**
 * Agave's fee: 5,000 lamports per required signature plus the priority fee, ceil(compute-unit price
 * in micro-lamports * compute-unit limit / 10^6). The limit defaults to 200,000 per instruction that
 * is not a ComputeBudget instruction (agave reserves less for builtins, so this can overestimate a
 * priority fee when no limit is set). Null when the blockhash is unknown, as on a validator.
 */
export function feeForMessage(message: DecodedMessage, blockhashValid: boolean): bigint | null {
  if (!blockhashValid) return null;
  let price = 0n;
  let limit: bigint | null = null;
  let otherInstructions = 0n;
  for (const ix of message.instructions) {
    if (message.staticAccounts[ix.programIndex] !== COMPUTE_BUDGET_PROGRAM_ADDRESS) {
      otherInstructions += 1n;
      continue;
    }
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
    if (ix.data[0] === SET_COMPUTE_UNIT_LIMIT && ix.data.length >= 5) limit = BigInt(view.getUint32(1, true));
    if (ix.data[0] === SET_COMPUTE_UNIT_PRICE && ix.data.length >= 9) price = view.getBigUint64(1, true);
  }
  const units = limit ?? otherInstructions * DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT;
  return (
    LAMPORTS_PER_SIGNATURE * BigInt(message.header.numRequiredSignatures) + priorityFeeLamports(price, units)
  );
}

const getFeeForMessage: RpcMethod = (params, { cluster }) => {
  const [encoded, rawConfig] = positional(params, 1, 2);
  const text = requireString(encoded, "param 0 (message)");
  const { slot } = resolveContextSlot(cluster, optionalConfig(rawConfig, "param 1 (config)"));
  const message = decodeMessageParam(text);
  return withContext(slot, feeForMessage(message, cluster.isBlockhashValid(message.recentBlockhash)));
};

export const transactionMethods: Readonly<Record<string, RpcMethod>> = {
  sendTransaction,
  simulateTransaction,
  requestAirdrop,
  getFeeForMessage,
};
