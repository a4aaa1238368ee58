/**
 * The wrapped secret: the account's exported secret encrypted in the browser under a key derived
 * from the passkey's PRF output, so a later unlock is one passkey touch. The server stores the blob
 * opaque (PUT /v1/dashboard/passkeys/{id}/wrapped-secret) and can never open it: the PRF output
 * never leaves the authenticator and this page.
 *
 * Blob v1 (base64): [0x01][IV 12][AES-256-GCM(exported secret, 44 ASCII bytes)][tag 16] = 73 bytes.
 * Key = HKDF-SHA256(PRF output, salt = "", info = "cpay/wrapped-secret/v1"). AAD = "cpay/wrapped-secret/v1"
 * || account id || passkey id, so a blob moved to another account or passkey does not open.
 */
import { base64ToBytes, bytesToBase64 } from "../lib/base64";

const INFO = new TextEncoder().encode("cpay/wrapped-secret/v1");
/** The PRF input (eval.first) every wrap uses: fixed, so the same passkey gives the same output. */
export const PRF_SALT = new TextEncoder().encode("cpay/wrapped-secret/v1 prf salt");

async function keyOf(prfOutput: ArrayBuffer | Uint8Array): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", prfOutput as BufferSource, "HKDF", false, [
    "deriveKey",
  ]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: INFO },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

function aadOf(accountId: string, passkeyId: string): Uint8Array {
  return new TextEncoder().encode(`cpay/wrapped-secret/v1\u0000${accountId}\u0000${passkeyId}`);
}

export async function wrapSecret(input: {
  readonly exported: string;
  readonly prfOutput: ArrayBuffer | Uint8Array;
  readonly accountId: string;
  readonly passkeyId: string;
}): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: aadOf(input.accountId, input.passkeyId) as BufferSource },
    await keyOf(input.prfOutput),
    new TextEncoder().encode(input.exported),
  );
  const blob = new Uint8Array(1 + 12 + sealed.byteLength);
  blob[0] = 1;
  blob.set(iv, 1);
  blob.set(new Uint8Array(sealed), 13);
  return bytesToBase64(blob);
}

/** The exported secret, or null when the blob does not open with this passkey's PRF output. */
export async function unwrapSecret(input: {
  readonly wrapped: string;
  readonly prfOutput: ArrayBuffer | Uint8Array;
  readonly accountId: string;
  readonly passkeyId: string;
}): Promise<string | null> {
  try {
    const blob = base64ToBytes(input.wrapped);
    if (blob[0] !== 1 || blob.length < 13 + 16) return null;
    const plain = await crypto.subtle.decrypt(
      {
        name: "AES-GCM",
        iv: blob.subarray(1, 13) as BufferSource,
        additionalData: aadOf(input.accountId, input.passkeyId) as BufferSource,
      },
      await keyOf(input.prfOutput),
      blob.subarray(13) as BufferSource,
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
