/**
 * Account reads: getAccountInfo, getMultipleAccounts, getBalance, getProgramAccounts,
 * getTokenAccountBalance, getMinimumBalanceForRentExemption.
 *
 * The cluster keeps only its latest state, so every read returns that state whatever the
 * commitment; the commitment still picks the context slot (and is what `minContextSlot` is checked
 * against), so a client's staleness guards behave as on a validator.
 */
import type { AccountRecord, ClusterPort } from "../../cluster/cluster-port";
import { type AccountEncoding, encodeAccount, readAccountEncoding, readDataSlice } from "../account-encoding";
import { invalidParams } from "../json-rpc-errors";
import {
  type Config,
  optionalBoolean,
  optionalConfig,
  positional,
  requireAddress,
  requireUsize,
} from "../params";
import { compileFilters } from "../program-account-filters";
import { type RpcMethod, resolveContextSlot, withContext } from "../rpc-context";
import { readMint, readTokenAccount, uiTokenAmount } from "../token-layout";

/** Agave's MAX_MULTIPLE_ACCOUNTS. */
const MAX_MULTIPLE_ACCOUNTS = 100;

/**
 * The config of a read of whole accounts (param 1): its context slot, and how each account is
 * encoded (`encoding`, default `defaultEncoding`, and `dataSlice`), checked in agave's order.
 */
function accountReadOf(cluster: ClusterPort, rawConfig: unknown, defaultEncoding: AccountEncoding) {
  const config: Config = optionalConfig(rawConfig, "param 1 (config)");
  const { slot } = resolveContextSlot(cluster, config);
  const encoding = readAccountEncoding(config, defaultEncoding);
  const slice = readDataSlice(config, encoding);
  return {
    config,
    slot,
    encode: (account: AccountRecord) => encodeAccount(cluster, account, encoding, slice),
  };
}

const getAccountInfo: RpcMethod = (params, { cluster }) => {
  const [address, rawConfig] = positional(params, 1, 2);
  const key = requireAddress(address, "param 0 (address)");
  const { slot, encode } = accountReadOf(cluster, rawConfig, "binary");
  const account = cluster.getAccount(key);
  return withContext(slot, account ? encode(account) : null);
};

const getMultipleAccounts: RpcMethod = (params, { cluster }) => {
  const [addresses, rawConfig] = positional(params, 1, 2);
  if (!Array.isArray(addresses))
    throw invalidParams("Invalid params: param 0 (addresses): expected an array of addresses");
  if (addresses.length > MAX_MULTIPLE_ACCOUNTS) {
    throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
  }
  const keys = addresses.map((address, index) => requireAddress(address, `param 0 (addresses[${index}])`));
  const { slot, encode } = accountReadOf(cluster, rawConfig, "base64");
  return withContext(
    slot,
    keys.map((key) => {
      const account = cluster.getAccount(key);
      return account ? encode(account) : null;
    }),
  );
};

const getBalance: RpcMethod = (params, { cluster }) => {
  const [address, rawConfig] = positional(params, 1, 2);
  const key = requireAddress(address, "param 0 (address)");
  const { slot } = resolveContextSlot(cluster, optionalConfig(rawConfig, "param 1 (config)"));
  return withContext(slot, cluster.getAccount(key)?.lamports ?? 0n);
};

const getProgramAccounts: RpcMethod = (params, { cluster }) => {
  const [programId, rawConfig] = positional(params, 1, 2);
  const owner = requireAddress(programId, "param 0 (programId)");
  const { config, slot, encode } = accountReadOf(cluster, rawConfig, "binary");
  const matches = compileFilters(config.filters);
  const accounts = cluster
    .getProgramAccounts(owner)
    .filter(matches)
    .map((account) => ({ pubkey: account.address, account: encode(account) }));
  return optionalBoolean(config, "withContext") ? withContext(slot, accounts) : accounts;
};

const getTokenAccountBalance: RpcMethod = (params, { cluster }) => {
  const [address, rawConfig] = positional(params, 1, 2);
  const key = requireAddress(address, "param 0 (address)");
  const { slot } = resolveContextSlot(cluster, optionalConfig(rawConfig, "param 1 (config)"));
  const account = cluster.getAccount(key);
  if (!account) throw invalidParams("Invalid param: could not find account");
  const token = readTokenAccount(account);
  if (!token) throw invalidParams("Invalid param: not a Token account");
  const mintAccount = cluster.getAccount(token.mint);
  const mint = mintAccount && readMint(mintAccount);
  if (!mint) throw invalidParams("Invalid param: could not find mint");
  return withContext(slot, uiTokenAmount(token.amount, mint.decimals));
};

const getMinimumBalanceForRentExemption: RpcMethod = (params, { cluster }) => {
  const [length, rawConfig] = positional(params, 1, 2);
  const dataLength = requireUsize(length, "param 0 (dataLength)");
  resolveContextSlot(cluster, optionalConfig(rawConfig, "param 1 (config)"));
  return cluster.minimumBalanceForRentExemption(dataLength);
};

export const accountMethods: Readonly<Record<string, RpcMethod>> = {
  getAccountInfo,
  getMultipleAccounts,
  getBalance,
  getProgramAccounts,
  getTokenAccountBalance,
  getMinimumBalanceForRentExemption,
};
