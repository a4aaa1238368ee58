/**
 * `GET /v1/accounts/me/balances` (spec 4.10, DESIGN section 6): one entry per asset and balance
 * kind, in a fixed order — USDG confidential, USDG public, SOL. Incoming confidential credits are
 * applied first, so the confidential entry covers everything received. Without a proof each entry
 * says only whether a non-zero balance is held, and the confidential entry carries the token
 * account's on-chain ciphertexts (`encrypted`: public on the chain already), from which the holder's
 * browser decrypts the balance and builds the proof; with a valid proof the confidential entry
 * carries the amount the proof shows. Public balances are public on-chain anyway, yet they too are
 * reported as yes/no, so the response never depends on who can read the chain.
 */

import type { AccountRow } from "@cpay/ledger";
import { formatDecimalAmount, USDG_DECIMALS } from "@cpay/sdk";
import type { TBalances } from "@cpay/sdk/api";
import { type ConfidentialKeyset, readConfidentialState } from "@cpay/sdk/confidential";
import type { ServiceContext } from "../core/service-context";
import { confidentialKeysOf } from "../vault/account-secrets";
import { applyIncomingCredits } from "./apply-incoming-credits";
import { hasConfidentialBalance } from "./has-confidential-balance";
import { publicTokenAmount, usdgTokenAccountOf } from "./usdg-token-account";
import { verifiedBalance } from "./verify-balance-proof";

type BalanceEntry = TBalances["balances"][number];

/** The account's balances; `proof` (base64, client-made) reveals the confidential USDG amount. */
export async function readBalances(
  service: ServiceContext,
  account: AccountRow,
  proof: string | undefined,
): Promise<TBalances> {
  const tokenAccount = await usdgTokenAccountOf(service, account);
  const keys = await confidentialKeysOf(service, account);
  await applyIncomingCredits(service, account, tokenAccount, keys);

  const [confidential, publicAmount, lamports] = await Promise.all([
    confidentialEntry(service, tokenAccount, keys, proof),
    publicTokenAmount(service, tokenAccount),
    spendableLamports(service, account.publicKey),
  ]);
  return {
    balances: [
      confidential,
      { asset: "USDG", confidential: false, has_balance: publicAmount > 0n },
      { asset: "SOL", confidential: false, has_balance: lamports > 0n },
    ],
  };
}

/** The proven amount with a proof, else only whether there is a confidential balance. */
async function confidentialEntry(
  service: ServiceContext,
  tokenAccount: string,
  keys: ConfidentialKeyset,
  proof: string | undefined,
): Promise<BalanceEntry> {
  if (proof !== undefined) {
    const amount = await verifiedBalance(service, tokenAccount, proof);
    return { asset: "USDG", confidential: true, amount: formatDecimalAmount(amount, USDG_DECIMALS) };
  }
  const state = await readConfidentialState(service.chain, tokenAccount);
  return {
    asset: "USDG",
    confidential: true,
    has_balance: state !== null && hasConfidentialBalance(state, keys),
    encrypted:
      state === null
        ? null
        : {
            available_balance: Buffer.from(state.availableBalance).toString("base64"),
            decryptable_available_balance: Buffer.from(state.decryptableAvailableBalance).toString("base64"),
          },
  };
}

/**
 * Lamports at the account's address beyond the rent-exempt reserve its data needs: a wallet
 * normally has none (the fee reserve pays everything); an agent's PDA holds only its rent, which
 * is not a balance anyone can spend.
 */
async function spendableLamports(service: ServiceContext, address: string): Promise<bigint> {
  const record = await service.chain.getAccount(address);
  if (record === null) return 0n;
  const reserve =
    record.data.length === 0 ? 0n : await service.chain.minimumBalanceForRentExemption(record.data.length);
  return record.lamports > reserve ? record.lamports - reserve : 0n;
}
