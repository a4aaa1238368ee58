/**
 * `npm run localnet:approve -- <owner> [<owner>...]`: the issuer's approval of confidential accounts
 * on a localnet whose USDG mint does not approve them by itself (LOCALNET_USDG_AUTO_APPROVE=0;
 * rpc/approve-accounts.ts). Each owner is a wallet address: an account's `public_key` (e.g. from
 * `npm run admin -- accounts show @handle`; an agent's is its PDA). Finds the localnet through the
 * manifest in LOCALNET_DIR (default ./data/localnet; localnet-dir-env.ts). The service reads the
 * account's state from the chain, so the account is ready as soon as this lands.
 */
import { isAddress } from "@solana/kit";
import { DEFAULT_LOCALNET_DIR, localnetDirFromEnv } from "./localnet-dir-env";
import { approveAccounts } from "./rpc/approve-accounts";

async function main(owners: readonly string[]): Promise<void> {
  if (owners.length === 0 || owners.some((owner) => !isAddress(owner))) {
    console.error("usage: npm run localnet:approve -- <owner wallet address> [...]");
    process.exit(2);
  }
  const approvals = await approveAccounts(localnetDirFromEnv(process.env) || DEFAULT_LOCALNET_DIR, owners);
  for (const { owner, tokenAccount, signature } of approvals) {
    console.log(
      signature === null
        ? `${owner}: ${tokenAccount} was already approved`
        : `${owner}: approved ${tokenAccount} (${signature})`,
    );
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
