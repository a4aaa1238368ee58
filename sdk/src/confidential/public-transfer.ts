/**
 * The public (non-confidential) path: a Token-2022 TransferChecked between the owners' associated
 * accounts. The amount is visible on-chain; used where confidentiality is not wanted or the
 * recipient cannot receive confidentially. The recipient's account is created if missing.
 */
import { address, type TransactionSigner } from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import type { ClusterPort } from "../cluster/cluster-port";
import { assertAmount, MAX_U64 } from "./amounts";
import { findTokenAccount, readConfidentialMint } from "./token-account";
import { signTransaction, submit } from "./transactions";

export interface PublicTransferInput {
  readonly owner: TransactionSigner;
  readonly mint: string;
  /** The recipient wallet (its associated token account receives). */
  readonly recipient: string;
  readonly amount: bigint;
  readonly payer?: TransactionSigner;
}

/** Transfers `amount` of the owner's public balance to the recipient's public balance. */
export async function transferPublic(
  cluster: ClusterPort,
  input: PublicTransferInput,
): Promise<{ readonly signature: string }> {
  assertAmount(input.amount, MAX_U64);
  const payer = input.payer ?? input.owner;
  const mint = address(input.mint);
  const [source, destination] = await Promise.all([
    findTokenAccount(input.owner.address, input.mint),
    findTokenAccount(input.recipient, input.mint),
  ]);
  const { decimals } = readConfidentialMint(cluster, input.mint);
  const transaction = await signTransaction({
    step: "public_transfer",
    feePayer: payer,
    blockhash: cluster.getLatestBlockhash(),
    instructions: [
      getCreateAssociatedTokenIdempotentInstruction({
        payer,
        ata: destination,
        owner: address(input.recipient),
        mint,
        tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
      }),
      getTransferCheckedInstruction({
        source,
        mint,
        destination,
        authority: input.owner,
        amount: input.amount,
        decimals,
      }),
    ],
  });
  return { signature: await submit(cluster, transaction) };
}
