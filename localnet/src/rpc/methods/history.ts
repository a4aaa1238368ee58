/**
 * Transaction history: getSignatureStatuses, getTransaction, getSignaturesForAddress.
 *
 * The cluster keeps its whole history, so `searchTransactionHistory` is accepted and changes
 * nothing. History methods refuse `processed`, as agave does ("Method does not support commitment
 * below `confirmed`"): only confirmed or finalized transactions are history.
 */
import type { Commitment } from "../../cluster/cluster-port";
import { invalidParams } from "../json-rpc-errors";
import {
  type Config,
  commitmentRank,
  optionalBoolean,
  optionalConfig,
  optionalString,
  optionalU64,
  positional,
  readEnum,
  requireAddress,
  requireSignature,
  requireUsize,
} from "../params";
import { type RpcMethod, resolveContextSlot, withContext } from "../rpc-context";
import { encodeTransactionRecord } from "../transaction-encoding";

const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;

function requireAtLeastConfirmed(commitment: Commitment): void {
  if (commitment === "processed") throw invalidParams("Method does not support commitment below `confirmed`");
}

const getSignatureStatuses: RpcMethod = (params, { cluster }) => {
  const [signatures, rawConfig] = positional(params, 1, 2);
  if (!Array.isArray(signatures)) {
    throw invalidParams("Invalid params: param 0 (signatures): expected an array of signatures");
  }
  if (signatures.length > MAX_SIGNATURE_STATUSES) {
    throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
  }
  const keys = signatures.map((signature, index) =>
    requireSignature(signature, `param 0 (signatures[${index}])`),
  );
  const config = optionalConfig(rawConfig, "param 1 (config)");
  optionalBoolean(config, "searchTransactionHistory");
  const slot = cluster.getSlot("processed");
  return withContext(
    slot,
    keys.map((signature) => {
      const status = cluster.getSignatureStatus(signature);
      if (!status) return null;
      return {
        slot: status.slot,
        confirmations: status.confirmations,
        err: status.err,
        status: status.err === null ? { Ok: null } : { Err: status.err },
        confirmationStatus: status.confirmationStatus,
      };
    }),
  );
};

/** getTransaction's second parameter: a config object, or (legacy form) just the encoding. */
function transactionConfig(value: unknown): Config {
  return typeof value === "string" ? { encoding: value } : optionalConfig(value, "param 1 (config)");
}

const getTransaction: RpcMethod = (params, { cluster }) => {
  const [signature, rawConfig] = positional(params, 1, 2);
  const key = requireSignature(signature, "param 0 (signature)");
  const config = transactionConfig(rawConfig);
  const encoding = readEnum(config, "encoding", ["json", "jsonParsed", "base64", "base58", "binary"], "json");
  const maxVersion = optionalU64(config, "maxSupportedTransactionVersion");
  if (maxVersion !== undefined && maxVersion !== 0n) {
    throw invalidParams(
      `Invalid params: maxSupportedTransactionVersion: unsupported version ${maxVersion}; the newest is 0`,
    );
  }
  const { commitment } = resolveContextSlot(cluster, config);
  requireAtLeastConfirmed(commitment);
  const record = cluster.getTransaction(key, commitment);
  if (!record) return null;
  return encodeTransactionRecord(
    record,
    encoding === "binary" ? "base58" : encoding,
    maxVersion === undefined ? undefined : 0,
  );
};

const getSignaturesForAddress: RpcMethod = (params, { cluster }) => {
  const [address, rawConfig] = positional(params, 1, 2);
  const key = requireAddress(address, "param 0 (address)");
  const config = optionalConfig(rawConfig, "param 1 (config)");
  const limit =
    config.limit === undefined || config.limit === null
      ? MAX_SIGNATURES_FOR_ADDRESS
      : requireUsize(config.limit, "limit");
  if (limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS) {
    throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
  }
  const before = optionalString(config, "before");
  const until = optionalString(config, "until");
  if (before !== undefined) requireSignature(before, "before");
  if (until !== undefined) requireSignature(until, "until");
  const { commitment } = resolveContextSlot(cluster, config);
  requireAtLeastConfirmed(commitment);
  const rank = commitmentRank(commitment);
  // Entries not yet at the commitment are the newest ones; a full page is fetched and filtered, so
  // only an address with over 1000 - limit such entries could come back short.
  return cluster
    .getSignaturesForAddress(key, { before, until, limit: MAX_SIGNATURES_FOR_ADDRESS })
    .filter((info) => commitmentRank(info.confirmationStatus) >= rank)
    .slice(0, limit)
    .map((info) => ({
      signature: info.signature,
      slot: info.slot,
      err: info.err,
      // The port does not extract SPL Memo text; agave would put "[len] text" here.
      memo: null,
      blockTime: info.blockTime,
      confirmationStatus: info.confirmationStatus,
    }));
};

export const historyMethods: Readonly<Record<string, RpcMethod>> = {
  getSignatureStatuses,
  getTransaction,
  getSignaturesForAddress,
};
