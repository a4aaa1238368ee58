/**
 * The issuer of a mint that does not approve confidential accounts by itself, approving one owner's
 * account through the SDK call the localnet's own tool (`npm run localnet:approve`,
 * localnet/src/approve-account.ts) makes, or with `viaTool` over RPC through that tool itself, the
 * way an operator does (a process start costs seconds: one suite step uses it).
 */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { LOCALNET_KEY_LABELS, localnetKey } from "@cpay/sdk/chain";
import { approveConfidentialAccount } from "@cpay/sdk/confidential";
import type { ApiWorld } from "./api-world";

const REPO = resolve(import.meta.dirname, "../..");
const TOOL = join(REPO, "localnet/src/approve-account.ts");

/** Approves `owner`'s USDG account as the mint's issuer; resolves once the approval has landed. */
export async function approveAsIssuer(
  world: ApiWorld,
  owner: string,
  options: { readonly viaTool?: boolean } = {},
): Promise<void> {
  if (options.viaTool === true && world.localnet !== null) {
    await promisify(execFile)(process.execPath, ["--import", "tsx", TOOL, owner], {
      cwd: REPO,
      env: { ...process.env, LOCALNET_LEDGER_DIR: world.localnet.ledgerDir },
    });
    return;
  }
  await approveConfidentialAccount(world.chain, {
    authority: await localnetKey(LOCALNET_KEY_LABELS.usdgMintAuthority).toSigner(),
    owner,
    mint: world.chain.usdgMint,
  });
}
