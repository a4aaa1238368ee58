/**
 * The localnet USDG mint: Token-2022, 6 decimals, ConfidentialTransferMint with auto-approve on and
 * no auditor (DESIGN section 6), created with @solana-program/token-2022's instructions in one real
 * transaction: CreateAccount (sized for the extension) -> InitializeConfidentialTransferMint (must
 * precede InitializeMint) -> InitializeMint2. The mint authority also holds the confidential-transfer
 * authority, so a later auditor can be set with ConfidentialTransferUpdateMint.
 */

import type { LocalnetKey } from "@cpay/sdk/chain";
import { type Address, createNoopSigner } from "@solana/kit";
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

/** The mint's extensions: confidential transfers, accounts usable as soon as configured. */
function usdgExtensions(authority: Address) {
  return [
    extension("ConfidentialTransferMint", {
      authority,
      autoApproveNewAccounts: true,
      auditorElgamalPubkey: null,
    }),
  ];
}

/** Creates the USDG mint at `mint`'s address; `authority` pays and becomes mint authority. */
export function createUsdgMint(input: {
  readonly target: LocalTarget;
  readonly mint: LocalnetKey;
  readonly authority: LocalnetKey;
}): TransactionRecord {
  const { target, mint, authority } = input;
  const extensions = usdgExtensions(authority.address);
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
