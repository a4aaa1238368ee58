/**
 * The balance check of a transfer (402 `insufficient_balance`), made before anything is written or
 * sent. Confidential: credits waiting in the pending balance are applied first (they are the
 * account's money; an apply moves nothing between accounts), then the available balance, decrypted
 * with the account's own keys, must cover the amount. Public: the token account's public balance.
 * No message quotes a number: the available balance is as private as the amount.
 */
import { applyAgentPendingBalance, readAgentAccount } from "@cpay/sdk/agent-confidential";
import {
  applyPendingBalance,
  availableBalance,
  type ConfidentialAccountState,
  findTokenAccount,
  readConfidentialState,
} from "@cpay/sdk/confidential";
import { getTokenDecoder, TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { ApiError } from "../http/api-error";
import { describeUnexpected } from "../http/error-handler";
import { reservePayer } from "../reserve/reserve-scope";
import type { ServiceContext } from "../service-context";
import type { ResolvedAsset } from "./resolve-asset";
import { type Sender, senderWallet } from "./sender";

// Made once: building the decoder (every extension's codec) costs more than a decode.
const TOKEN_DECODER = getTokenDecoder();

/** Throws `402 insufficient_balance` unless the sender holds `amount` of the kind it spends. */
export async function requireSufficientBalance(
  service: ServiceContext,
  input: {
    readonly sender: Sender;
    readonly asset: ResolvedAsset;
    readonly amount: bigint;
    readonly confidential: boolean;
  },
): Promise<void> {
  const source = await findTokenAccount(senderWallet(input.sender), input.asset.mint);
  const enough = input.confidential
    ? (await confidentialAvailable(service, input.sender, input.asset, source)) >= input.amount
    : (await publicBalance(service, source)) >= input.amount;
  if (!enough) {
    throw new ApiError(
      "insufficient_balance",
      `the account's ${input.confidential ? "confidential" : "public"} ${input.asset.symbol} balance does not cover the amount`,
      "amount",
    );
  }
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
