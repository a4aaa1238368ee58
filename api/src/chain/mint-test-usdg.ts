/**
 * The test cluster's USDG faucet over the chain port: the mint authority (whose keypair the
 * localnet publishes) creates the owner's token account if needed and mints into it, paying its own
 * fee, so funding a test account never spends the fee reserve.
 */
import { USDG_DECIMALS } from "@cpay/sdk";
import { awaitLanding, type ChainPort, signTransactionToWire } from "@cpay/sdk/chain";
import { type Address, address, type KeyPairSigner } from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToCheckedInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";

export async function mintTestUsdg(
  chain: ChainPort,
  input: { readonly authority: KeyPairSigner; readonly owner: Address; readonly amount: bigint },
): Promise<void> {
  const mint = address(chain.usdgMint);
  const [tokenAccount] = await findAssociatedTokenPda({
    owner: input.owner,
    mint,
    tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
  });
  const { blockhash, lastValidBlockHeight } = await chain.getLatestBlockhash();
  const { signature, wire } = await signTransactionToWire({
    feePayer: input.authority,
    instructions: [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: input.authority,
        ata: tokenAccount,
        owner: input.owner,
        mint,
        tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
      }),
      getMintToCheckedInstruction(
        {
          mint,
          token: tokenAccount,
          mintAuthority: input.authority,
          amount: input.amount,
          decimals: USDG_DECIMALS,
        },
        { programAddress: TOKEN_2022_PROGRAM_ADDRESS },
      ),
    ],
    blockhash,
    lastValidBlockHeight,
  });
  await chain.sendTransaction(wire, { preflight: true });
  const status = await awaitLanding(chain, signature, blockhash, { wire });
  if (status === null) throw new Error("the test faucet's mint did not land before its blockhash expired");
  if (status.err !== null) throw new Error(`the test faucet's mint failed: ${JSON.stringify(status.err)}`);
}
