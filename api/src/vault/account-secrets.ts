/**
 * The secrets the vault holds per account, sealed at rest (core/vault-crypto.ts):
 * - `wallet_seed`: the ed25519 seed of a personal/business account's wallet;
 * - `confidential_secret`: the 32-byte secret its ElGamal and AE keys derive from (sdk keys.ts);
 * - `agent_signer_seed`: an agent's signer key (the key the program accepts for its spends).
 * An agent's confidential secret is not stored: it derives from its owner's (sdk
 * `deriveAgentConfidentialSecret`), so the owner can read the agent's amounts client-side.
 */

import type { AccountRow } from "@cpay/ledger";
import type { Db } from "@cpay/ledger/database";
import { nowIso } from "@cpay/ledger/ids";
import { keyFromSeed } from "@cpay/sdk/chain";
import {
  type ConfidentialKeyset,
  deriveAgentConfidentialSecret,
  deriveConfidentialKeys,
} from "@cpay/sdk/confidential";
import type { KeyPairSigner } from "@solana/kit";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";
import { masterKeyring, openSecret, sealSecret, VaultError } from "../core/vault-crypto";

export type SecretKind =
  | "wallet_seed"
  | "confidential_secret"
  | "agent_signer_seed"
  | "webhook_secret"
  | "webhook_secret_previous";

/** Seals and stores `secret` inside the caller's transaction. */
export async function storeSecret(
  service: ServiceContext,
  tx: Db,
  accountId: string,
  kind: SecretKind,
  secret: Uint8Array,
): Promise<void> {
  await tx.insert(service.db.tables.vaultSecrets).values({
    accountId,
    kind,
    keyId: service.config.masterKey.id,
    sealed: sealSecret(service.config.masterKey, accountId, kind, secret),
    createdAt: nowIso(),
  });
}

/** Deletes one secret (if present) inside the caller's transaction. */
export async function deleteSecret(
  service: ServiceContext,
  tx: Db,
  accountId: string,
  kind: SecretKind,
): Promise<void> {
  const { vaultSecrets } = service.db.tables;
  await tx
    .delete(vaultSecrets)
    .where(and(eq(vaultSecrets.accountId, accountId), eq(vaultSecrets.kind, kind)));
}

/** Opens one secret; VaultError if missing or sealed under another master key. */
export async function loadSecret(
  service: ServiceContext,
  accountId: string,
  kind: SecretKind,
): Promise<Uint8Array> {
  const { vaultSecrets } = service.db.tables;
  const [row] = await service.db.read((db) =>
    db
      .select()
      .from(vaultSecrets)
      .where(and(eq(vaultSecrets.accountId, accountId), eq(vaultSecrets.kind, kind))),
  );
  if (row === undefined) throw new VaultError(`no ${kind} in the vault for ${accountId}`);
  // A row names its key: during a rotation it may still be a previous one (core/vault-crypto.ts).
  const key = masterKeyring(service.config.masterKey, service.config.previousMasterKeys).find(
    (candidate) => candidate.id === row.keyId,
  );
  if (key === undefined) {
    throw new VaultError(
      `the ${kind} of ${accountId} was sealed under master key ${row.keyId}, which is neither SERVICE_MASTER_KEY nor in SERVICE_MASTER_KEYS_PREVIOUS`,
    );
  }
  return openSecret(key, accountId, kind, row.sealed);
}

/**
 * Opened keys are kept in process memory for a minute after they were opened (like a KMS data-key
 * cache): opening costs a vault read, an AES-GCM open and a WebCrypto key import per request, a
 * large share of a public transfer's own cost. Account secrets never change, so nothing needs
 * invalidating; a webhook secret can be rotated, so its entry is keyed by the subscription's
 * `secret_version`. The window only bounds how long an idle account's keys stay in memory.
 */
const OPENED_KEYS_TTL_MS = 60_000;
const openedKeys = new WeakMap<
  ServiceContext,
  Map<string, { readonly expires: number; readonly value: Promise<unknown> }>
>();

function opened<T>(service: ServiceContext, id: string, open: () => Promise<T>): Promise<T> {
  let cache = openedKeys.get(service);
  if (cache === undefined) {
    cache = new Map();
    openedKeys.set(service, cache);
  }
  const now = Date.now();
  const hit = cache.get(id);
  if (hit !== undefined && hit.expires > now) return hit.value as Promise<T>;
  for (const [key, entry] of cache) if (entry.expires <= now) cache.delete(key);
  const value = open();
  const entries = cache;
  entries.set(id, { expires: now + OPENED_KEYS_TTL_MS, value });
  // A failed open is not remembered.
  value.catch(() => entries.delete(id));
  return value;
}

/** The wallet signer of a personal/business account. */
export function walletSignerOf(service: ServiceContext, accountId: string): Promise<KeyPairSigner> {
  return opened(service, `wallet:${accountId}`, async () =>
    keyFromSeed(accountId, await loadSecret(service, accountId, "wallet_seed")).toSigner(),
  );
}

/** The signer an agent spends with. */
export function agentSignerOf(service: ServiceContext, agentAccountId: string): Promise<KeyPairSigner> {
  return opened(service, `agent-signer:${agentAccountId}`, async () =>
    keyFromSeed(agentAccountId, await loadSecret(service, agentAccountId, "agent_signer_seed")).toSigner(),
  );
}

/**
 * A webhook subscription's signing secret (`whsec_...`) at `version` (the subscription's
 * `secret_version`), or with `previous` the one rotated out at that version; opened once a minute
 * at most per worker.
 */
export function webhookSecretOf(
  service: ServiceContext,
  subscriptionId: string,
  version = 1,
  previous = false,
): Promise<string> {
  const kind = previous ? "webhook_secret_previous" : "webhook_secret";
  return opened(service, `${kind}:${subscriptionId}:${version}`, async () =>
    new TextDecoder().decode(await loadSecret(service, subscriptionId, kind)),
  );
}

/** The confidential keys of an account; an agent's derive from its owner's secret and handle. */
export function confidentialKeysOf(
  service: ServiceContext,
  account: AccountRow,
): Promise<ConfidentialKeyset> {
  return opened(service, `confidential:${account.id}`, () => openConfidentialKeys(service, account));
}

async function openConfidentialKeys(
  service: ServiceContext,
  account: AccountRow,
): Promise<ConfidentialKeyset> {
  if (account.type !== "agent") {
    return deriveConfidentialKeys(await loadSecret(service, account.id, "confidential_secret"));
  }
  if (account.ownerAccountId === null) throw new VaultError(`agent ${account.id} has no owner`);
  const ownerSecret = await loadSecret(service, account.ownerAccountId, "confidential_secret");
  return deriveConfidentialKeys(deriveAgentConfidentialSecret(ownerSecret, agentHandleText(account.handle)));
}

/** `@owner/name` -> `owner/name`, the form the SDK's agent derivations take. */
export function agentHandleText(handle: string): string {
  return handle.startsWith("@") ? handle.slice(1) : handle;
}
