/**
 * Account reads: getAccountInfo, getMultipleAccounts, getBalance, getProgramAccounts,
 * getTokenAccountBalance, getMinimumBalanceForRentExemption.
 *
 * The cluster keeps only its latest state, so every read returns that state whatever the
 * commitment; the commitment still picks the context slot (and is what `minContextSlot` is checked
 * against), so a client's staleness guards behave as on a validator.
 */
import { encodeAccount, readAccountEncoding, readDataSlice } from "../account-encoding";
import { invalidParams } from "../json-rpc-errors";
import { optionalBoolean, optionalConfig, positional, requireAddress, requireUsize } from "../params";
import { compileFilters } from "../program-account-filters";
import { type RpcMethod, resolveContextSlot, withContext } from "../rpc-context";
import { readMint, readTokenAccount, uiTokenAmount } from "../token-layout";

/** Agave's MAX_MULTIPLE_ACCOUNTS. */
const MAX_MULTIPLE_ACCOUNTS = 100;

const getAccountInfo: RpcMethod = (params, { cluster }) => {
  const [address, rawConfig] = positional(params, 1, 2);
  const key = requireAddress(address, "param 0 (address)");
  const config = optionalConfig(rawConfig, "param 1 (config)");
  const { slot } = resolveContextSlot(cluster, config);
  const encoding = readAccountEncoding(config, "binary");
  const slice = readDataSlice(config, encoding);
  const account = cluster.getAccount(key);
  return withContext(slot, account ? encodeAccount(cluster, account, encoding, slice) : null);
};

const getMultipleAccounts: RpcMethod = (params, { cluster }) => {
  const [addresses, rawConfig] = positional(params, 1, 2);
  if (!Array.isArray(addresses))
    throw invalidParams("Invalid params: param 0 (addresses): expected an array of addresses");
  if (addresses.length > MAX_MULTIPLE_ACCOUNTS) {
    throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
  }
  const keys = addresses.map((address, index) => requireAddress(address, `param 0 (addresses[${index}])`));
  const config = optionalConfig(rawConfig, "param 1 (config)");
  const { slot } = resolveContextSlot(cluster, config);
  const encoding = readAccountEncoding(config, "base64");
  const slice = readDataSlice(config, encoding);
  return withContext(
    slot,
    keys.map((key) => {
      const account = cluster.getAccount(key);
      return account ? encodeAccount(cluster, account, encoding, slice) : null;
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
  const config = optionalConfig(rawConfig, "param 1 (config)");
  const { slot } = resolveContextSlot(cluster, config);
  const encoding = readAccountEncoding(config, "binary");
  const slice = readDataSlice(config, encoding);
  const matches = compileFilters(config.filters);
  const accounts = cluster
    .getProgramAccounts(owner)
    .filter(matches)
    .map((account) => ({
      pubkey: account.address,
      account: encodeAccount(cluster, account, encoding, slice),
    }));
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
