/**
 * The balance check of a transfer (402 `insufficient_balance`), made before anything is written or
 * sent. Confidential: credits waiting in the pending balance are applied first (they are the
 * account's money; an apply moves nothing between accounts), then the available balance, decrypted
 * with the account's own keys, must cover the amount. Public: the token account's public balance.
 * A fee (account-opening.ts) comes from the public balance of the wallet that pays it (sender.ts
 * `feeWalletOf`): the sender's, on top of the amount, or an agent's owner's. No message quotes a
 * balance: the available balance is as private as the amount (the fee is a published setting).
 */
import { formatDecimalAmount } from "@cpay/sdk";
import { applyAgentPendingBalance, readAgentAccount } from "@cpay/sdk/agent-confidential";
import {
  applyPendingBalance,
  availableBalance,
  type ConfidentialAccountState,
  findTokenAccount,
  readConfidentialState,
} from "@cpay/sdk/confidential";
import { getTokenDecoder, TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { ApiError } from "../core/api-error";
import { describeUnexpected } from "../core/describe-unexpected";
import type { ServiceContext } from "../core/service-context";
import { reservePayer } from "../reserve/reserve-scope";
import type { ResolvedAsset } from "./resolve-asset";
import { feeWalletOf, type Sender, senderWallet } from "./sender";

// Made once: building the decoder (every extension's codec) costs more than a decode.
const TOKEN_DECODER = getTokenDecoder();

/**
 * Throws `402 insufficient_balance` unless the sender holds `amount` of the kind it spends and, when
 * `fee` is charged, the fee's payer holds it in its public balance too.
 */
export async function requireSufficientBalance(
  service: ServiceContext,
  input: {
    readonly sender: Sender;
    readonly asset: ResolvedAsset;
    readonly amount: bigint;
    readonly confidential: boolean;
    /** Base units of the account-opening fee this transfer charges (0n: none). */
    readonly fee: bigint;
  },
): Promise<void> {
  const { sender, asset, fee } = input;
  const source = await findTokenAccount(senderWallet(sender), asset.mint);
  // The owner's own fee comes from the same public balance as the amount.
  const ownFee = sender.kind === "owner" ? fee : 0n;
  const enough = input.confidential
    ? (await confidentialAvailable(service, sender, asset, source)) >= input.amount
    : (await publicBalance(service, source)) >= input.amount + ownFee;
  if (!enough) {
    const what = ownFee > 0n ? `the amount plus the ${feeText(fee, asset)}` : "the amount";
    throw new ApiError(
      "insufficient_balance",
      `the account's ${input.confidential ? "confidential" : "public"} ${asset.symbol} balance does not cover ${what}`,
      "amount",
    );
  }
  if (sender.kind !== "agent" || fee === 0n) return;
  const ownerWallet = await feeWalletOf(service, sender);
  const ownerSource = await findTokenAccount(ownerWallet.address, asset.mint);
  if ((await publicBalance(service, ownerSource)) < fee) {
    throw new ApiError(
      "insufficient_balance",
      `the agent's owner's public ${asset.symbol} balance does not cover the ${feeText(fee, asset)}, which the owner pays for its agents; fund the owner's public balance, or pay a recipient whose ${asset.symbol} account exists`,
    );
  }
}

/** The fee as messages name it, with why it is charged. */
function feeText(fee: bigint, asset: ResolvedAsset): string {
  return `${formatDecimalAmount(fee, asset.decimals)} ${asset.symbol} account-opening fee (the recipient has no ${asset.symbol} account yet: the service opens it, and the sender pays for that)`;
}

async function confidentialAvailable(
  service: ServiceContext,
  sender: Sender,
  asset: ResolvedAsset,
  source: string,
): Promise<bigint> {
  const state = await readConfidentialState(service.chain, source);
  if (state === null) return 0n;
  if (state.pendingBalanceCreditCounter === 0n || !(await canApply(service, sender))) {
    return availableBalance(state, sender.keys);
  }
  try {
    if (sender.kind === "agent") {
      await applyAgentPendingBalance(service.chain, {
        authority: sender.agentSigner,
        agent: sender.agent,
        mint: asset.mint,
        keys: sender.keys,
        payer: reservePayer(service),
      });
    } else {
      await applyPendingBalance(service.chain, {
        owner: sender.wallet,
        mint: asset.mint,
        keys: sender.keys,
        payer: reservePayer(service),
      });
    }
  } catch (error) {
    service.logger.warn(
      { account_id: sender.account.id, err: describeUnexpected(error) },
      "applying the pending balance failed",
    );
    throw new ApiError(
      "chain_unavailable",
      "the cluster did not accept the transaction that applies incoming funds; nothing moved, retry",
    );
  }
  return availableBalance(
    (await readConfidentialState(service.chain, source)) as ConfidentialAccountState,
    sender.keys,
  );
}

/**
 * An agent with an open confidential hold cannot apply (the program pins the balance the held
 * proofs were made against); its transfer is then refused by the policy path, not here.
 */
async function canApply(service: ServiceContext, sender: Sender): Promise<boolean> {
  if (sender.kind !== "agent") return true;
  return (await readAgentAccount(service.chain, sender.agent)).confidentialHold === null;
}

/** The public balance of a Token-2022 account; 0 when the account does not exist. */
export async function publicBalance(service: ServiceContext, tokenAccount: string): Promise<bigint> {
  const record = await service.chain.getAccount(tokenAccount);
  if (record === null || record.owner !== TOKEN_2022_PROGRAM_ADDRESS) return 0n;
  return TOKEN_DECODER.decode(record.data).amount;
}
