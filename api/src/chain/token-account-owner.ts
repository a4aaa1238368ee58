/** Who owns a token account, as the cluster says now: the wallet or PDA, or null when it is gone. */
import { tokenAccountOwnerOf } from "@cpay/sdk/confidential";
import type { ServiceContext } from "../core/service-context";

/** The owner of `tokenAccount`, or null when it does not exist or is no token account. */
export async function tokenAccountOwner(
  service: ServiceContext,
  tokenAccount: string,
): Promise<string | null> {
  const account = await service.chain.getAccount(tokenAccount);
  return account === null ? null : tokenAccountOwnerOf(account.owner, account.data);
}
