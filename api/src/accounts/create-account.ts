/**
 * Creates a personal or business account (admin CLI, start-up demo accounts): a fresh wallet and
 * confidential secret sealed in the vault, the `@handle` registered on-chain by the registrar, and a
 * confidential-ready USDG account, all paid by the fee reserve. Returns the account and its
 * confidential secret in the SDK's export format, to be handed to the holder once (it reads its
 * amounts and its agents' amounts with it). If the chain part fails, the rows are removed again.
 */
import { randomBytes } from "node:crypto";
import type { AccountRow } from "@cpay/ledger";
import { newId, nowIso } from "@cpay/ledger/ids";
import { buildHandleRegisterInstruction, HandleValidationError, normalizeAccountHandle } from "@cpay/sdk";
import { keyFromSeed } from "@cpay/sdk/chain";
import {
  deriveConfidentialKeys,
  exportConfidentialSecret,
  generateConfidentialSecret,
  setupConfidentialAccount,
} from "@cpay/sdk/confidential";
import { address } from "@solana/kit";
import { eq } from "drizzle-orm";
import { sendInstructions } from "../chain/send-instructions";
import type { ServiceContext } from "../core/service-context";
import { withReserveSpend } from "../reserve/reserve-scope";
import { storeSecret } from "../vault/account-secrets";

export type KycStatus = "unverified" | "pending" | "verified" | "enhanced";

export class AccountInputError extends Error {
  override readonly name = "AccountInputError";
}

export async function createAccount(
  service: ServiceContext,
  input: { readonly handle: string; readonly type: "personal" | "business"; readonly kycStatus: KycStatus },
): Promise<{ readonly account: AccountRow; readonly confidentialSecret: string }> {
  let handle: string;
  try {
    handle = normalizeAccountHandle(input.handle);
  } catch (error) {
    if (error instanceof HandleValidationError) throw new AccountInputError(error.message);
    throw error;
  }
  const { accounts, vaultSecrets } = service.db.tables;
  const walletSeed = new Uint8Array(randomBytes(32));
  const secret = generateConfidentialSecret();
  const wallet = await keyFromSeed("wallet", walletSeed).toSigner();
  const account: AccountRow = {
    id: newId("acct"),
    handle: `@${handle}`,
    type: input.type,
    kycStatus: input.kycStatus,
    publicKey: wallet.address,
    ownerAccountId: null,
    agentName: null,
    agentSigner: null,
    agentCustody: null,
    policyId: null,
    createdAt: nowIso(),
  };
  await service.db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.handle, account.handle));
    if (taken !== undefined) throw new AccountInputError(`the handle ${account.handle} is taken`);
    await tx.insert(accounts).values(account);
    await storeSecret(service, tx, account.id, "wallet_seed", walletSeed);
    await storeSecret(service, tx, account.id, "confidential_secret", secret);
  });
  try {
    // An account is opened by the service's operator (admin, start-up): the reserve's own spend.
    await withReserveSpend(service, null, async () =>
      sendInstructions(service, [
        await buildHandleRegisterInstruction({
          registrar: service.registrar,
          payer: service.feePayer,
          handle,
          kind: input.type,
          wallet: wallet.address,
          programAddress: address(service.chain.programId),
        }),
      ]),
    );
    await setupConfidentialAccount(service.chain, {
      owner: wallet,
      mint: service.chain.usdgMint,
      keys: deriveConfidentialKeys(secret),
      payer: service.feePayer,
    });
  } catch (error) {
    await service.db.transaction(async (tx) => {
      await tx.delete(vaultSecrets).where(eq(vaultSecrets.accountId, account.id));
      await tx.delete(accounts).where(eq(accounts.id, account.id));
    });
    throw error;
  }
  return { account, confidentialSecret: exportConfidentialSecret(secret) };
}
