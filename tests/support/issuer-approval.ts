/**
 * The issuer of a mint that does not approve confidential accounts by itself, approving one owner's
 * account: over RPC the way an operator does on the localnet, with the function behind its approve
 * tool (`npm run localnet:approve`, localnet/src/rpc/approve-accounts.ts: manifest, RPC, the
 * labelled authority); in process with the SDK call that tool makes.
 */
import { approveAccounts } from "@cpay/localnet/rpc";
import { LOCALNET_KEY_LABELS, localnetKey } from "@cpay/sdk/chain";
import { approveConfidentialAccount } from "@cpay/sdk/confidential";
import type { ApiWorld } from "./api-world";

/** Approves `owner`'s USDG account as the mint's issuer; resolves once the approval has landed. */
export async function approveAsIssuer(world: ApiWorld, owner: string): Promise<void> {
  if (world.localnet !== null) {
    await approveAccounts(world.localnet.dir, [owner]);
    return;
  }
  await approveConfidentialAccount(world.chain, {
    authority: await localnetKey(LOCALNET_KEY_LABELS.usdgMintAuthority).toSigner(),
    owner,
    mint: world.chain.usdgMint,
  });
}
