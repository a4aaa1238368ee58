/**
 * The dashboard's sign-in (passkeys, WebAuthn) and sessions: enrollment through a one-time link,
 * discoverable sign-in, the session view and the account's passkeys. Credentials and options are
 * the WebAuthn JSON forms (`PublicKeyCredential.toJSON()`, `parseCreationOptionsFromJSON`), checked
 * for shape here and verified by the server's WebAuthn library.
 */
import { z } from "zod";
import { ZTimestamp, zId } from "./common";
import { ENVIRONMENTS } from "./environment";

const ZBase64Url = z.string().regex(/^[A-Za-z0-9_-]*$/, "must be base64url");

/** An enrollment link's token as typed or pasted; anything else is answered as an unknown link. */
const ZEnrollmentToken = z
  .string()
  .min(1)
  .max(200)
  .meta({ description: "`enr_test_...` or `enr_live_...` from the enrollment link" });

/**
 * What the browser returns besides the credential. A PRF result is the key that wraps the account's
 * secret: it must never reach the service, so a credential carrying one is refused.
 */
const ZClientExtensionResults = z.record(z.string(), z.unknown()).refine(
  (results) => {
    const prf = results.prf as { results?: unknown } | undefined;
    return prf === undefined || prf === null || typeof prf !== "object" || prf.results === undefined;
  },
  { message: "prf.results must stay in the browser: it is the key that wraps the account secret" },
);

/** The fields both ceremonies' credentials carry beside their own `response`. */
const credentialFields = {
  id: ZBase64Url.min(1).max(1366),
  rawId: ZBase64Url.min(1).max(1366),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: ZClientExtensionResults,
};

export const ZRegistrationCredential = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: ZBase64Url.max(4096),
      attestationObject: ZBase64Url.max(16384),
      authenticatorData: ZBase64Url.max(8192).optional(),
      transports: z.array(z.string().max(32)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: ZBase64Url.max(4096).optional(),
    }),
  })
  .meta({ id: "RegistrationCredential", description: "A WebAuthn registration response (JSON form)" });

export const ZAuthenticationCredential = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: ZBase64Url.max(4096),
      authenticatorData: ZBase64Url.max(8192),
      // Post-quantum passkeys sign with ML-DSA (-48..-50), which the server's library offers first
      // when Node supports it and Chromium's authenticator picks: ML-DSA-87 signs in 4,627 bytes
      // (6,170 base64url characters); ES256/EdDSA/RS256 stay far below.
      signature: ZBase64Url.max(8192),
      userHandle: ZBase64Url.max(128).optional(),
    }),
  })
  .meta({ id: "AuthenticationCredential", description: "A WebAuthn authentication response (JSON form)" });

/** WebAuthn options as the server's library writes them (the JSON form the browser parses). */
const ZWebAuthnOptions = z.looseObject({ challenge: ZBase64Url }).meta({
  description: "WebAuthn options, JSON form (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON)",
});

export const ZEnrollmentOptionsRequest = z
  .strictObject({ token: ZEnrollmentToken })
  .meta({ id: "EnrollmentOptionsRequest" });
export const ZEnrollmentOptions = z
  .object({ options: ZWebAuthnOptions, handle: z.string() })
  .meta({ id: "EnrollmentOptions" });

export const ZEnrollmentRequest = z
  .strictObject({
    token: ZEnrollmentToken,
    credential: ZRegistrationCredential,
    passkey_name: z.string().trim().min(1).max(64).optional(),
  })
  .meta({ id: "EnrollmentRequest" });
export type TEnrollmentRequest = z.infer<typeof ZEnrollmentRequest>;

export const ZSignInOptionsRequest = z.strictObject({}).meta({ id: "SignInOptionsRequest" });
export const ZSignInOptions = z
  .object({ challenge_id: zId("chl"), options: ZWebAuthnOptions })
  .meta({ id: "SignInOptions" });

export const ZSignInRequest = z
  .strictObject({ challenge_id: zId("chl"), credential: ZAuthenticationCredential })
  .meta({ id: "SignInRequest" });
export type TSignInRequest = z.infer<typeof ZSignInRequest>;

/** An opaque blob of at most 512 bytes, base64 (standard alphabet, padded). */
export const ZWrappedSecret = z
  .string()
  .max(684)
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, "must be base64")
  .refine((text) => (text.length / 4) * 3 - (text.match(/=+$/)?.[0].length ?? 0) <= 512, {
    message: "at most 512 bytes",
  })
  .meta({
    description:
      "The account secret encrypted in the browser under a key from the passkey's PRF output; opaque to the service",
  });

export const ZSessionView = z
  .object({
    environment: z.enum(ENVIRONMENTS).meta({
      description:
        "The session's environment: the dashboard sends it as `X-Cpay-Environment` on every request it makes",
    }),
    account: z.object({
      account_id: zId("acct"),
      handle: z.string(),
      type: z.enum(["personal", "business"]),
    }),
    passkey: z.object({ passkey_id: zId("pk"), name: z.string() }),
    csrf_token: z.string().meta({ description: "Send as `X-CSRF-Token` on every non-GET request" }),
    expires_at: ZTimestamp,
    idle_expires_at: ZTimestamp,
    wrapped_secret: ZWrappedSecret.nullable(),
    explorer_transaction_url: z.string().nullable().meta({
      description:
        "This environment's explorer URL of a transaction, `{signature}` to be replaced by its base58 signature; null when its cluster has no explorer a holder can open",
    }),
  })
  .meta({ id: "SessionView" });
export type TSessionView = z.infer<typeof ZSessionView>;

export const ZSignedOut = z.object({ signed_out: z.literal(true) }).meta({ id: "SignedOut" });
export const ZSignedOutEverywhere = z
  .object({ signed_out: z.number().int().min(0).meta({ description: "Sessions ended" }) })
  .meta({ id: "SignedOutEverywhere" });

export const ZPasskey = z
  .object({
    passkey_id: zId("pk"),
    name: z.string(),
    created_at: ZTimestamp,
    last_used_at: ZTimestamp.nullable(),
    revoked_at: ZTimestamp.nullable(),
  })
  .meta({ id: "Passkey" });
export type TPasskey = z.infer<typeof ZPasskey>;
export const ZPasskeyList = z.object({ passkeys: z.array(ZPasskey) }).meta({ id: "PasskeyList" });

export const ZPasskeyParams = z.strictObject({ passkey_id: zId("pk") });

export const ZWrappedSecretRequest = z
  .strictObject({ wrapped_secret: ZWrappedSecret.nullable() })
  .meta({ id: "WrappedSecretRequest" });
export const ZWrappedSecretAnswer = z
  .object({ passkey_id: zId("pk"), wrapped_secret: ZWrappedSecret.nullable() })
  .meta({ id: "WrappedSecret" });
