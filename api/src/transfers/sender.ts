/**
 * The sending side of a transfer, opened from the vault once per request: who signs (the wallet of
 * a personal/business account, or an agent's signer), whose token account pays, and the confidential
 * keys that prove the amount and encrypt the memo. An agent spends only through the program, as its
 * PDA, with its agent signer (never its owner's wallet), so every policy rule binds the service too.
 */

import type { AccountRow } from "@cpay/ledger";
import type { ConfidentialKeyset } from "@cpay/sdk/confidential";
import { type Address, address, type KeyPairSigner } from "@solana/kit";
import type { ServiceContext } from "../core/service-context";
import { agentSignerOf, confidentialKeysOf, walletSignerOf } from "../vault/account-secrets";

export type Sender =
  | {
      readonly kind: "owner";
      readonly account: AccountRow;
      /** The wallet that owns the source token account and signs the transfer. */
      readonly wallet: KeyPairSigner;
      readonly keys: ConfidentialKeyset;
    }
  | {
      readonly kind: "agent";
      readonly account: AccountRow;
      /** The agent PDA: owner of the source token account. */
      readonly agent: Address;
      /** The key the program accepts for this agent's spends. */
      readonly agentSigner: KeyPairSigner;
      readonly keys: ConfidentialKeyset;
    };

/** Opens the sender's signer and keys from the vault. */
export async function loadSender(service: ServiceContext, account: AccountRow): Promise<Sender> {
  const keys = await confidentialKeysOf(service, account);
  if (account.type === "agent") {
    return {
      kind: "agent",
      account,
      agent: address(account.publicKey),
      agentSigner: await agentSignerOf(service, account.id),
      keys,
    };
  }
  return { kind: "owner", account, wallet: await walletSignerOf(service, account.id), keys };
}

/** The wallet (or agent PDA) that owns the sender's token accounts. */
export function senderWallet(sender: Sender): Address {
  return sender.kind === "agent" ? sender.agent : sender.wallet.address;
}

/**
 * The wallet that pays a transfer's fees (account-opening.ts) from its public balance, signing for
 * them in the transfer's own transaction: the sender's, or for an agent its owner's — an agent's
 * tokens are its PDA's, which only the program moves, and only as spends checked by its policy.
 */
export async function feeWalletOf(service: ServiceContext, sender: Sender): Promise<KeyPairSigner> {
  if (sender.kind === "owner") return sender.wallet;
  const owner = sender.account.ownerAccountId;
  if (owner === null) throw new Error(`agent ${sender.account.id} has no owner to pay its fees`);
  return walletSignerOf(service, owner);
}
