/**
 * Wallet-owned confidential accounts: create the owner's Token-2022 ATA with the confidential
 * extension configured, in one transaction (CreateIdempotent -> Reallocate -> ConfigureAccount ->
 * VerifyPubkeyValidity). ConfigureAccount reads the pubkey-validity proof from the next instruction
 * through the instructions sysvar, so no context account is needed and nothing can be left half
 * done: either the account is ready or the transaction did not land.
 */
import { type Address, address, type Instruction, type TransactionSigner } from "@solana/kit";
import {
  ExtensionType,
  getConfigureConfidentialTransferAccountInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getReallocateInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import { getVerifyProofInstruction, ZkElGamalProofInstruction } from "@solana-program/zk-elgamal-proof";
import type { ChainPort } from "../chain/chain-port";
import { ConfidentialError } from "./errors";
import type { ConfidentialKeyset } from "./keys";
import {
  type ConfidentialAccountState,
  findTokenAccount,
  readTokenAccount,
  type TokenAccountState,
} from "./token-account";
import { signTransaction, submit } from "./transactions";
import { PubkeyValidityProofData } from "./zk-sdk";

/**
 * Token-2022's default: how many credits (deposits, incoming transfers) may wait in the pending
 * balance before the owner must apply them. 2^16 keeps the pending low half below 2^32, which is
 * what makes it decryptable.
 */
export const DEFAULT_MAXIMUM_PENDING_CREDITS = 1n << 16n;

export interface SetupConfidentialAccountInput {
  /** The wallet that owns (and signs for) the token account. */
  readonly owner: TransactionSigner;
  readonly mint: string;
  readonly keys: ConfidentialKeyset;
  /** Pays the fee and the account's rent; defaults to the owner. */
  readonly payer?: TransactionSigner;
  readonly maximumPendingCredits?: bigint;
}

/**
 * Creates and configures the owner's confidential token account. Idempotent: an account already
 * configured with these keys returns `signature: null`; one configured with another ElGamal key
 * throws `account_key_mismatch` (Token-2022 cannot reconfigure it).
 */
export async function setupConfidentialAccount(
  chain: ChainPort,
  input: SetupConfidentialAccountInput,
): Promise<{ readonly tokenAccount: string; readonly signature: string | null }> {
  const tokenAccount = await findTokenAccount(input.owner.address, input.mint);
  const payer = input.payer ?? input.owner;
  const mint = address(input.mint);
  const signature = await configureTokenAccountOnce(chain, {
    tokenAccount,
    existing: (await readTokenAccount(chain, tokenAccount))?.confidential ?? null,
    keys: input.keys,
    payer,
    owner: input.owner.address,
    mint,
    configure: () => [
      getReallocateInstruction({
        token: tokenAccount,
        payer,
        owner: input.owner,
        newExtensionTypes: [ExtensionType.ConfidentialTransferAccount],
      }),
      getConfigureConfidentialTransferAccountInstruction({
        token: tokenAccount,
        mint,
        authority: input.owner,
        decryptableZeroBalance: input.keys.ae.encrypt(0n).toBytes(),
        maximumPendingBalanceCreditCounter: input.maximumPendingCredits ?? DEFAULT_MAXIMUM_PENDING_CREDITS,
        // The proof is the instruction right after this one.
        proofInstructionOffset: 1,
      }),
      getVerifyProofInstruction({
        discriminator: ZkElGamalProofInstruction.VerifyPubkeyValidity,
        proofData: new PubkeyValidityProofData(input.keys.elgamal).toBytes(),
      }),
    ],
  });
  return { tokenAccount, signature };
}

/**
 * One transaction that creates `tokenAccount` (the Token-2022 associated account of `owner` for
 * `mint`) where it is missing and then runs `configure()`, unless the account is already configured
 * (`existing`): with `keys`, nothing is sent (null); with another ElGamal key, `account_key_mismatch`
 * (Token-2022 cannot reconfigure it). Wallet and agent accounts differ only in `configure`.
 */
export async function configureTokenAccountOnce(
  chain: ChainPort,
  input: {
    readonly tokenAccount: Address;
    readonly existing: ConfidentialAccountState | null;
    readonly keys: ConfidentialKeyset;
    readonly payer: TransactionSigner;
    readonly owner: Address;
    readonly mint: Address;
    readonly configure: () => readonly Instruction[];
  },
): Promise<string | null> {
  const { tokenAccount, existing, payer } = input;
  if (existing !== null) {
    if (!sameBytes(existing.elgamalPubkey, input.keys.elgamalPubkey)) {
      throw new ConfidentialError(
        "account_key_mismatch",
        `${tokenAccount} is configured with another ElGamal key`,
      );
    }
    return null;
  }
  const transaction = await signTransaction({
    step: "configure_account",
    feePayer: payer,
    blockhash: await chain.getLatestBlockhash(),
    instructions: [
      getCreateAssociatedTokenIdempotentInstruction({
        payer,
        ata: tokenAccount,
        owner: input.owner,
        mint: input.mint,
        tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
      }),
      ...input.configure(),
    ],
  });
  return submit(chain, transaction);
}

/** Why an owner's account cannot receive confidential transfers now, or `ready`. */
export type ConfidentialReadiness =
  | "ready"
  | "no_token_account"
  | "not_configured"
  | "not_approved"
  | "frozen"
  | "confidential_credits_disabled"
  | "pending_credits_full";

/** The readiness of `owner`'s associated token account for `mint` to receive confidential credits. */
export async function confidentialReadiness(
  chain: ChainPort,
  owner: string,
  mint: string,
): Promise<ConfidentialReadiness> {
  return readinessOf(await readTokenAccount(chain, await findTokenAccount(owner, mint)));
}

/** The readiness of a token account already read (null: there is none). */
export function readinessOf(account: TokenAccountState | null): ConfidentialReadiness {
  if (account === null) return "no_token_account";
  const state = account.confidential;
  if (state === null) return "not_configured";
  if (!state.approved) return "not_approved";
  if (state.frozen) return "frozen";
  if (!state.allowConfidentialCredits) return "confidential_credits_disabled";
  if (state.pendingBalanceCreditCounter >= state.maximumPendingBalanceCreditCounter)
    return "pending_credits_full";
  return "ready";
}

/**
 * True when `owner` can receive a confidential transfer of `mint` now (the API answers
 * `422 recipient_not_confidential_ready` otherwise; `confidentialReadiness` says why).
 */
export async function isConfidentialReady(chain: ChainPort, owner: string, mint: string): Promise<boolean> {
  return (await confidentialReadiness(chain, owner, mint)) === "ready";
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
