/**
 * Issues an API key scoped to one account (spec section 5: "named, shown once"). Agent accounts get
 * their own agent-scoped keys, with which the agent spends through its on-chain policy.
 */

import type { Db } from "@cpay/ledger/database";
import { newId, nowIso } from "@cpay/ledger/ids";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";
import { generateApiKey, type KeyEnvironment } from "./api-key-format";

export interface IssuedKey {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly environment: KeyEnvironment;
  /** The key itself: shown once, never stored. */
  readonly value: string;
}

/**
 * Issues a key. `bindIn` runs inside the transaction that writes the key's row: an
 * `Idempotency-Key` claim names the key there, so a request that dies before answering leaves a
 * claim its retry can recover (the unseen key discarded, recover-idempotency.ts), never a second key.
 */
export async function issueApiKey(
  service: ServiceContext,
  input: { readonly accountId: string; readonly name: string; readonly environment: KeyEnvironment },
  bindIn?: (tx: Db, keyId: string) => Promise<void>,
): Promise<IssuedKey> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) throw new RangeError("a key's name is 1 to 100 characters");
  const { accounts, apiKeys } = service.db.tables;
  const key = generateApiKey(input.environment);
  const id = newId("key");
  await service.db.transaction(async (tx) => {
    const [account] = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.id, input.accountId));
    if (account === undefined) throw new RangeError(`no account ${input.accountId}`);
    await tx.insert(apiKeys).values({
      id,
      accountId: input.accountId,
      name,
      environment: input.environment,
      keyHash: key.hash,
      last4: key.last4,
      createdAt: nowIso(),
    });
    await bindIn?.(tx, id);
  });
  return { id, accountId: input.accountId, name, environment: input.environment, value: key.value };
}
