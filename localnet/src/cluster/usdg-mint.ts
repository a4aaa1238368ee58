/**
 * The localnet USDG mint: Token-2022, 6 decimals, ConfidentialTransferMint (DESIGN section 6),
 * created with @solana-program/token-2022's instructions in one real transaction: CreateAccount
 * (sized for the extension) -> InitializeConfidentialTransferMint (must precede InitializeMint) ->
 * InitializeMint2. By default new confidential accounts are approved automatically and there is no
 * auditor; `UsdgMintSettings` makes a mint like Paxos' USDG on mainnet instead, where the issuer
 * approves each account (ApproveAccount, signed by the mint's confidential-transfer authority) and
 * may hold an auditor ElGamal key. The mint authority also holds the confidential-transfer
 * authority: it is the issuer that approves, and a later auditor can be set with
 * ConfidentialTransferUpdateMint.
 */

import type { LocalnetKey } from "@cpay/sdk/chain";
import { type Address, createNoopSigner, getAddressDecoder } from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  extension,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToCheckedInstruction,
  getPreInitializeInstructionsForMintExtensions,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import type { TransactionRecord } from "./cluster-port";
import type { LocalTarget } from "./local-transaction";

export const USDG_DECIMALS = 6;

/** How the mint treats confidential accounts (fixed at genesis, as on a real mint). */
export interface UsdgMintSettings {
  /** true: accounts are usable as soon as configured; false: each awaits the issuer's ApproveAccount. */
  readonly autoApproveNewAccounts: boolean;
  /** The auditor's ElGamal public key (32 bytes): every confidential transfer encrypts its amount to it. */
  readonly auditorElgamalPubkey: Uint8Array | null;
}

/** The localnet's default: accounts usable as soon as configured, no auditor. */
export const DEFAULT_USDG_MINT_SETTINGS: UsdgMintSettings = {
  autoApproveNewAccounts: true,
  auditorElgamalPubkey: null,
};

function usdgExtensions(authority: Address, settings: UsdgMintSettings) {
  const auditor = settings.auditorElgamalPubkey;
  return [
    extension("ConfidentialTransferMint", {
      authority,
      autoApproveNewAccounts: settings.autoApproveNewAccounts,
      // Token-2022's client models the 32-byte ElGamal key as an address-shaped value.
      auditorElgamalPubkey: auditor === null ? null : getAddressDecoder().decode(auditor),
    }),
  ];
}

/** Creates the USDG mint at `mint`'s address; `authority` pays and becomes mint authority. */
export function createUsdgMint(input: {
  readonly target: LocalTarget;
  readonly mint: LocalnetKey;
  readonly authority: LocalnetKey;
  readonly settings?: UsdgMintSettings;
}): TransactionRecord {
  const { target, mint, authority } = input;
  const extensions = usdgExtensions(authority.address, input.settings ?? DEFAULT_USDG_MINT_SETTINGS);
  const space = getMintSize(extensions);
  return target.submit(
    {
      feePayer: authority,
      signers: [mint],
      instructions: [
        getCreateAccountInstruction({
          payer: createNoopSigner(authority.address),
          newAccount: createNoopSigner(mint.address),
          lamports: target.minimumBalanceForRentExemption(space),
          space,
          programAddress: TOKEN_2022_PROGRAM_ADDRESS,
        }),
        ...getPreInitializeInstructionsForMintExtensions(mint.address, extensions),
        getInitializeMint2Instruction({
          mint: mint.address,
          decimals: USDG_DECIMALS,
          mintAuthority: authority.address,
          freezeAuthority: null,
        }),
      ],
    },
    "create USDG mint",
  );
}

/** Mints `amount` base units (6 decimals) into an existing USDG token account. */
export function mintUsdgTo(input: {
  readonly target: LocalTarget;
  readonly mint: Address;
  readonly authority: LocalnetKey;
  readonly tokenAccount: Address;
  readonly amount: bigint;
}): TransactionRecord {
  const { target, authority } = input;
  return target.submit(
    {
      feePayer: authority,
      instructions: [
        getMintToCheckedInstruction({
          mint: input.mint,
          token: input.tokenAccount,
          mintAuthority: createNoopSigner(authority.address),
          amount: input.amount,
          decimals: USDG_DECIMALS,
        }),
      ],
    },
    "mint USDG",
  );
}

/**
 * Mints into `owner`'s associated USDG account, creating it first if needed (one transaction).
 * The account is a plain Token-2022 account; configuring it for confidential transfers is the
 * owner's business (it needs the owner's ElGamal keys).
 */
export async function mintUsdgToOwner(input: {
  readonly target: LocalTarget;
  readonly mint: Address;
  readonly authority: LocalnetKey;
  readonly owner: Address;
  readonly amount: bigint;
}): Promise<{ readonly record: TransactionRecord; readonly tokenAccount: Address }> {
  const { target, authority } = input;
  const [tokenAccount] = await findAssociatedTokenPda({
    owner: input.owner,
    mint: input.mint,
    tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
  });
  const record = target.submit(
    {
      feePayer: authority,
      instructions: [
        getCreateAssociatedTokenIdempotentInstruction({
          payer: createNoopSigner(authority.address),
          ata: tokenAccount,
          owner: input.owner,
          mint: input.mint,
          tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
        }),
        getMintToCheckedInstruction({
          mint: input.mint,
          token: tokenAccount,
          mintAuthority: createNoopSigner(authority.address),
          amount: input.amount,
          decimals: USDG_DECIMALS,
        }),
      ],
    },
    "mint USDG to owner",
  );
  return { record, tokenAccount };
}
