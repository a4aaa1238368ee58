/**
 * Whether an address is the wallet of one of this environment's accounts (a personal or business
 * account's public key, or an agent's PDA). Those are the owners whose token accounts only the
 * service can close: a personal or business wallet's key is in the vault, and an agent's PDA signs
 * only through the program, which closes no token account. Any other owner can close its token
 * account and take the rent, which is why the fee reserve opens theirs only for a fee
 * (transfers/account-opening.ts) and never through the relay (relay/external-account-opening.ts).
 */
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";

/** True when `wallet` is an account of this environment (see the module doc). */
export async function isServiceWallet(service: ServiceContext, wallet: string): Promise<boolean> {
  const { accounts } = service.db.tables;
  const found = await service.db.read((db) =>
    db.select({ id: accounts.id }).from(accounts).where(eq(accounts.publicKey, wallet)).limit(1),
  );
  return found.length > 0;
}
