/**
 * A confidential credit from outside the service: a wallet the service does not know sets up its
 * own confidential USDG account, funds it and sends `amount` to `recipient`, where it lands in the
 * pending balance (what a holder's balance read must count and apply). The service's fee payer pays
 * the fees, so the outside wallet needs no SOL.
 */
import {
  applyPendingBalance,
  depositConfidential,
  deriveConfidentialKeys,
  generateConfidentialSecret,
  setupConfidentialAccount,
  transferConfidential,
} from "@cpay/sdk/confidential";
import { generateKeyPairSigner } from "@solana/kit";
import type { ApiWorld } from "../../support/api-world";

export async function creditFromOutside(world: ApiWorld, recipient: string, amount: bigint): Promise<void> {
  const { feePayer } = world.service.context;
  const mint = world.chain.usdgMint;
  const outsider = await generateKeyPairSigner();
  const keys = deriveConfidentialKeys(generateConfidentialSecret());
  await setupConfidentialAccount(world.chain, { owner: outsider, mint, keys, payer: feePayer });
  await world.faucet.mintUsdgToOwner(outsider.address, amount);
  await depositConfidential(world.chain, { owner: outsider, mint, amount, payer: feePayer });
  await applyPendingBalance(world.chain, { owner: outsider, mint, keys, payer: feePayer });
  await transferConfidential(world.chain, {
    owner: outsider,
    keys,
    mint,
    recipient,
    amount,
    payer: feePayer,
  });
}
