/**
 * `npm run localnet:approve -- <owner> [<owner>...]`: the issuer's approval of confidential accounts
 * on a localnet whose USDG mint does not approve them by itself (LOCALNET_USDG_AUTO_APPROVE=0). For
 * each owner wallet (an account's `public_key`, e.g. from `npm run admin -- accounts show @handle`)
 * it sends Token-2022's ApproveAccount for the owner's USDG account, signed by the mint's
 * confidential-transfer authority, exactly as the issuer of a real mint would. The service reads
 * the account's state from the chain, so the account is ready as soon as this lands.
 *
 * Finds the localnet through the manifest in LOCALNET_LEDGER_DIR (default ./data/localnet). The
 * authority is the localnet's labelled mint-authority key, usable on a localnet only.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  connectRpcChain,
  LOCALNET_KEY_LABELS,
  LOCALNET_MANIFEST_FILE,
  localnetKey,
  parseLocalnetManifest,
} from "@cpay/sdk/chain";
import { approveConfidentialAccount } from "@cpay/sdk/confidential";
import { isAddress } from "@solana/kit";

const DEFAULT_LEDGER_DIR = "./data/localnet";

async function main(owners: readonly string[]): Promise<void> {
  if (owners.length === 0 || owners.some((owner) => !isAddress(owner))) {
    console.error("usage: npm run localnet:approve -- <owner wallet address> [...]");
    process.exit(2);
  }
  const dir = process.env.LOCALNET_LEDGER_DIR || DEFAULT_LEDGER_DIR;
  const manifest = parseLocalnetManifest(JSON.parse(readFileSync(join(dir, LOCALNET_MANIFEST_FILE), "utf8")));
  const chain = await connectRpcChain({
    rpcUrl: manifest.rpcUrl,
    wsUrl: manifest.wsUrl,
    programId: manifest.programId,
    usdgMint: manifest.usdgMint,
  });
  try {
    const authority = await localnetKey(LOCALNET_KEY_LABELS.usdgMintAuthority).toSigner();
    for (const owner of owners) {
      const { tokenAccount, signature } = await approveConfidentialAccount(chain, {
        authority,
        owner,
        mint: manifest.usdgMint,
      });
      console.log(
        signature === null
          ? `${owner}: ${tokenAccount} was already approved`
          : `${owner}: approved ${tokenAccount} (${signature})`,
      );
    }
  } finally {
    await chain.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
