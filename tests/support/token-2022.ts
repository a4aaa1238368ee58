/**
 * Token-2022 set-up the program suites need beyond the cluster's USDG mint: another mint (for
 * "mint not allowed" and mint-mismatch attacks), associated accounts of any owner (PDAs included)
 * funded by a real MintToChecked, and reading an account's amount.
 */
import type { EmbeddedCluster } from "@cpay/localnet/cluster";
import { type Address, getAddressDecoder, type Instruction, type KeyPairSigner } from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToCheckedInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import type { Outcome } from "./cluster-send";

/** Lands instructions (paid by the caller's fee payer) with extra signers. */
export type Send = (
  instructions: readonly Instruction[],
  signers?: readonly KeyPairSigner[],
) => Promise<Outcome>;

async function mustLand(send: Send, instructions: readonly Instruction[], signers: readonly KeyPairSigner[]) {
  const outcome = await send(instructions, signers);
  if (outcome.err !== null) {
    throw new Error(`token set-up failed: ${JSON.stringify(outcome.err)}\n${outcome.logs.join("\n")}`);
  }
}

/** A plain Token-2022 mint at `mint`'s address, `authority` minting, no extensions. */
export async function createToken2022Mint(
  cluster: EmbeddedCluster,
  send: Send,
  input: {
    readonly payer: KeyPairSigner;
    readonly mint: KeyPairSigner;
    readonly authority: Address;
    readonly decimals: number;
  },
): Promise<Address> {
  const space = getMintSize();
  await mustLand(
    send,
    [
      getCreateAccountInstruction({
        payer: input.payer,
        newAccount: input.mint,
        lamports: cluster.minimumBalanceForRentExemption(space),
        space,
        programAddress: TOKEN_2022_PROGRAM_ADDRESS,
      }),
      getInitializeMint2Instruction({
        mint: input.mint.address,
        decimals: input.decimals,
        mintAuthority: input.authority,
        freezeAuthority: input.authority,
      }),
    ],
    [],
  );
  return input.mint.address;
}

/** `owner`'s associated Token-2022 account of `mint` (created if needed), holding `amount` more. */
export async function fundedTokenAccount(
  send: Send,
  input: {
    readonly payer: KeyPairSigner;
    readonly owner: Address;
    readonly mint: Address;
    readonly mintAuthority: KeyPairSigner;
    readonly decimals: number;
    readonly amount: bigint;
  },
): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({
    owner: input.owner,
    mint: input.mint,
    tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
  });
  const instructions: Instruction[] = [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: input.payer,
      ata,
      owner: input.owner,
      mint: input.mint,
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    }),
  ];
  if (input.amount > 0n) {
    instructions.push(
      getMintToCheckedInstruction({
        mint: input.mint,
        token: ata,
        mintAuthority: input.mintAuthority,
        amount: input.amount,
        decimals: input.decimals,
      }),
    );
  }
  await mustLand(send, instructions, []);
  return ata;
}

/** A token account's `amount` (base units at bytes 64..72), or 0n when the account does not exist. */
export function tokenAmount(cluster: EmbeddedCluster, account: Address | string): bigint {
  const record = cluster.getAccount(account);
  if (record === null) return 0n;
  return new DataView(record.data.buffer, record.data.byteOffset).getBigUint64(64, true);
}

/** The owner wallet stored in a token account (bytes 32..64). */
export function tokenOwner(cluster: EmbeddedCluster, account: Address | string): Address | null {
  const record = cluster.getAccount(account);
  if (record === null) return null;
  return getAddressDecoder().decode(record.data.subarray(32, 64));
}
