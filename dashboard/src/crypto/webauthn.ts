/**
 * Passkeys through `navigator.credentials` directly: the server's options JSON (WebAuthn Level 3
 * JSON, as @simplewebauthn/server makes it) is turned into the binary form the browser API takes,
 * and the credential back into the JSON the server verifies.
 *
 * The PRF extension is requested on every ceremony: its output is the key that wraps the account
 * secret (wrap-secret.ts). That output is kept in this page only; the JSON sent to the server never
 * carries any extension result (clientExtensionResults is reduced to `credProps`).
 */
import { base64UrlToBytes, bytesToBase64Url } from "../lib/base64";
import { PRF_SALT } from "./wrap-secret";

/** Loose shapes of the server's options JSON: only the binary fields are touched. */
interface CredentialDescriptorJson {
  readonly id: string;
  readonly type: string;
  readonly transports?: string[];
}
export interface CreationOptionsJson {
  readonly challenge: string;
  readonly user: { readonly id: string; readonly name: string; readonly displayName: string };
  readonly excludeCredentials?: CredentialDescriptorJson[];
  readonly [field: string]: unknown;
}
export interface RequestOptionsJson {
  readonly challenge: string;
  readonly allowCredentials?: CredentialDescriptorJson[];
  readonly [field: string]: unknown;
}

export class PasskeyError extends Error {
  override readonly name = "PasskeyError";
}

function descriptors(
  list: CredentialDescriptorJson[] | undefined,
): PublicKeyCredentialDescriptor[] | undefined {
  return list?.map((entry) => ({
    id: base64UrlToBytes(entry.id) as BufferSource,
    type: "public-key",
    ...(entry.transports === undefined ? {} : { transports: entry.transports as AuthenticatorTransport[] }),
  }));
}

function b64(buffer: ArrayBuffer): string {
  return bytesToBase64Url(new Uint8Array(buffer));
}

function explain(error: unknown): PasskeyError {
  if (error instanceof DOMException && error.name === "NotAllowedError") {
    return new PasskeyError("The passkey prompt was cancelled or timed out. Try again.");
  }
  if (error instanceof DOMException && error.name === "InvalidStateError") {
    return new PasskeyError("This authenticator already holds a passkey for this account.");
  }
  return new PasskeyError(
    `The passkey could not be used: ${error instanceof Error ? error.message : String(error)}`,
  );
}

function requirePasskeySupport(): void {
  if (typeof PublicKeyCredential === "undefined")
    throw new PasskeyError("This browser does not support passkeys.");
}

/** One ceremony (create or get): a refusal or a timeout becomes a PasskeyError saying so. */
async function ceremony(run: () => Promise<Credential | null>): Promise<PublicKeyCredential> {
  try {
    return (await run()) as PublicKeyCredential;
  } catch (error) {
    throw explain(error);
  }
}

/** A credential as the server's JSON takes it: the fields both ceremonies share, then their own. */
function credentialJson(
  credential: PublicKeyCredential,
  response: Record<string, unknown>,
  clientExtensionResults: object,
) {
  return {
    id: credential.id,
    rawId: b64(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    response,
    clientExtensionResults,
  };
}

function prfFirst(credential: PublicKeyCredential): ArrayBuffer | null {
  const results = credential.getClientExtensionResults() as {
    prf?: { results?: { first?: ArrayBuffer | ArrayBufferView } };
  };
  const first = results.prf?.results?.first;
  if (first === undefined) return null;
  return first instanceof ArrayBuffer
    ? first
    : (first.buffer.slice(first.byteOffset, first.byteOffset + first.byteLength) as ArrayBuffer);
}

/**
 * ES256, then EdDSA, then RS256 first, then whatever else the server listed: authenticators take the
 * first algorithm they support, and a post-quantum ML-DSA key (listed first by the server's library)
 * makes every sign-in assertion kilobytes long. Only algorithms the server offered are kept, so it
 * accepts the result either way.
 */
const PREFERRED_ALGORITHMS = [-7, -8, -257];

function preferCompactAlgorithms(params: unknown): unknown {
  if (!Array.isArray(params)) return params;
  const rank = (entry: { alg?: number }) => {
    const index = PREFERRED_ALGORITHMS.indexOf(entry.alg ?? 0);
    return index === -1 ? PREFERRED_ALGORITHMS.length : index;
  };
  return [...(params as { alg?: number }[])].sort((a, b) => rank(a) - rank(b));
}

/** The registration ceremony; returns the RegistrationResponseJSON for the server. */
export async function createPasskey(
  options: CreationOptionsJson,
): Promise<{ credential: unknown; prfEnabled: boolean }> {
  requirePasskeySupport();
  const publicKey = {
    ...(options as object),
    challenge: base64UrlToBytes(options.challenge),
    user: { ...options.user, id: base64UrlToBytes(options.user.id) },
    pubKeyCredParams: preferCompactAlgorithms(options.pubKeyCredParams),
    excludeCredentials: descriptors(options.excludeCredentials),
    extensions: { ...((options.extensions as object | undefined) ?? {}), prf: {}, credProps: true },
  } as unknown as PublicKeyCredentialCreationOptions;
  const credential = await ceremony(() => navigator.credentials.create({ publicKey }));
  const response = credential.response as AuthenticatorAttestationResponse;
  const extensions = credential.getClientExtensionResults() as {
    prf?: { enabled?: boolean };
    credProps?: unknown;
  };
  return {
    prfEnabled: extensions.prf?.enabled === true,
    credential: credentialJson(
      credential,
      {
        clientDataJSON: b64(response.clientDataJSON),
        attestationObject: b64(response.attestationObject),
        transports: response.getTransports?.() ?? [],
      },
      extensions.credProps === undefined ? {} : { credProps: extensions.credProps },
    ),
  };
}

/**
 * The authentication ceremony with the PRF extension evaluated at PRF_SALT. Returns the
 * AuthenticationResponseJSON for the server (no extension output in it) and, apart, the PRF output
 * (null when the authenticator has no PRF).
 */
export async function getPasskey(
  options: RequestOptionsJson,
): Promise<{ credential: unknown; credentialId: string; prfOutput: ArrayBuffer | null }> {
  requirePasskeySupport();
  const publicKey = {
    ...(options as object),
    challenge: base64UrlToBytes(options.challenge),
    allowCredentials: descriptors(options.allowCredentials),
    extensions: { ...((options.extensions as object | undefined) ?? {}), prf: { eval: { first: PRF_SALT } } },
  } as unknown as PublicKeyCredentialRequestOptions;
  const credential = await ceremony(() => navigator.credentials.get({ publicKey }));
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    credentialId: credential.id,
    prfOutput: prfFirst(credential),
    credential: credentialJson(
      credential,
      {
        clientDataJSON: b64(response.clientDataJSON),
        authenticatorData: b64(response.authenticatorData),
        signature: b64(response.signature),
        userHandle: response.userHandle === null ? undefined : b64(response.userHandle),
      },
      {},
    ),
  };
}

/**
 * A local ceremony for the PRF output alone (unlock, or wrapping after a manual unlock): the
 * challenge is random and nothing is sent to the server, which needs no proof of this touch.
 */
export async function passkeyPrfOutput(rpId: string): Promise<ArrayBuffer> {
  const { prfOutput } = await getPasskey({
    challenge: bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32))),
    rpId,
    userVerification: "required",
    timeout: 60_000,
  });
  if (prfOutput === null) {
    throw new PasskeyError(
      "This passkey has no PRF support, so it cannot hold the secret: unlock with the secret itself.",
    );
  }
  return prfOutput;
}
