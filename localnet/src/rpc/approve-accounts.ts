/**
 * The issuer's approval of confidential accounts on a running localnet whose USDG mint does not
 * approve them by itself (LOCALNET_USDG_AUTO_APPROVE=0): found through the manifest in its localnet
 * directory and reached over its RPC like any validator, each owner's USDG account gets Token-2022's
 * ApproveAccount signed by the mint's confidential-transfer authority, exactly as the issuer of a
 * real mint would sign it. The authority is the localnet's labelled mint-authority key, usable on a
 * localnet only. `npm run localnet:approve` (src/approve-account.ts) is this as a command.
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

export interface AccountApproval {
  readonly owner: string;
  readonly tokenAccount: string;
  /** null: it was approved already, nothing was sent. */
  readonly signature: string | null;
}

/** Approves each owner's USDG account on the localnet whose directory is `localnetDir`, in order. */
export async function approveAccounts(
  localnetDir: string,
  owners: readonly string[],
): Promise<readonly AccountApproval[]> {
  const manifest = parseLocalnetManifest(
    JSON.parse(readFileSync(join(localnetDir, LOCALNET_MANIFEST_FILE), "utf8")),
  );
  const chain = await connectRpcChain(manifest);
  try {
    const authority = await localnetKey(LOCALNET_KEY_LABELS.usdgMintAuthority).toSigner();
    const approvals: AccountApproval[] = [];
    for (const owner of owners) {
      const approved = await approveConfidentialAccount(chain, { authority, owner, mint: manifest.usdgMint });
      approvals.push({ owner, ...approved });
    }
    return approvals;
  } finally {
    await chain.close();
  }
}
