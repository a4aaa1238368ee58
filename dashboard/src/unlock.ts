/**
 * Unlocking: the holder's exported secret (pasted, read from a file, or unwrapped with the passkey's
 * PRF output) becomes the viewing keys in memory. The secret is checked against the account's
 * ElGamal public key from GET /v1/accounts/me, so another account's secret is refused instead of
 * showing nothing but "not yours" everywhere. Nothing derived from the secret is sent anywhere.
 */
import { deriveViewingKeys, importAccountSecret } from "@cpay/sdk/sealed";
import { api } from "./api/client";
import type { Account } from "./api/types";
import { warmOpenPool } from "./crypto/open-pool";
import { passkeyPrfOutput } from "./crypto/webauthn";
import { unwrapSecret, wrapSecret } from "./crypto/wrap-secret";
import { base64ToBytes, sameBytes } from "./lib/base64";
import { getState, type Unlocked, update } from "./state";

export class UnlockError extends Error {
  override readonly name = "UnlockError";
}

export async function unlockWithSecret(exported: string): Promise<Unlocked> {
  const text = exported.trim();
  let keys: Unlocked["keys"];
  try {
    const secret = importAccountSecret(text);
    keys = deriveViewingKeys(secret);
    secret.fill(0);
  } catch {
    throw new UnlockError(
      "That is not an account secret: it is the 44-character text the service gave you once when the account was created.",
    );
  }
  const account = await api<Account>("GET", "/v1/accounts/me");
  if (typeof account.elgamal_pubkey === "string") {
    const expected = base64ToBytes(account.elgamal_pubkey);
    if (!sameBytes(expected, keys.elgamalPubkey)) {
      throw new UnlockError(
        `This secret does not belong to ${account.handle}: its key differs from the account's. Nothing was unlocked.`,
      );
    }
  }
  const unlocked: Unlocked = { exported: text, keys };
  warmOpenPool();
  update({ unlocked, account });
  return unlocked;
}

function rpId(): string {
  return location.hostname;
}

/** Unlock with the passkey: its PRF output opens the wrapped secret the session carries. */
export async function unlockWithPasskey(): Promise<Unlocked> {
  const session = getState().session;
  if (session === null || session.wrapped_secret === null) {
    throw new UnlockError(
      "This passkey holds no wrapped secret yet: unlock with the secret once, then wrap it.",
    );
  }
  const prfOutput = await passkeyPrfOutput(rpId());
  return unlockWithPrfOutput(prfOutput);
}

/** Opens the session's wrapped secret with a PRF output already obtained (e.g. at sign-in). */
export async function unlockWithPrfOutput(prfOutput: ArrayBuffer): Promise<Unlocked> {
  const session = getState().session;
  if (session === null || session.wrapped_secret === null)
    throw new UnlockError("No wrapped secret to open.");
  const exported = await unwrapSecret({
    wrapped: session.wrapped_secret,
    prfOutput,
    accountId: session.account.account_id,
    passkeyId: session.passkey.passkey_id,
  });
  if (exported === null) {
    throw new UnlockError(
      "The wrapped secret does not open with that passkey (a different passkey was chosen?). Unlock with the secret itself.",
    );
  }
  return unlockWithSecret(exported);
}

/** Wraps the unlocked secret under this passkey's PRF output and stores the blob on the server. */
export async function wrapWithPasskey(): Promise<void> {
  const { session, unlocked } = getState();
  if (session === null || unlocked === null) throw new UnlockError("Unlock first.");
  const prfOutput = await passkeyPrfOutput(rpId());
  const wrapped = await wrapSecret({
    exported: unlocked.exported,
    prfOutput,
    accountId: session.account.account_id,
    passkeyId: session.passkey.passkey_id,
  });
  await api(
    "PUT",
    `/v1/dashboard/passkeys/${encodeURIComponent(session.passkey.passkey_id)}/wrapped-secret`,
    {
      body: { wrapped_secret: wrapped },
    },
  );
  update({ session: { ...session, wrapped_secret: wrapped } });
}
