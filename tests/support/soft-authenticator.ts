/**
 * A software WebAuthn authenticator for the suites: one ES256 (P-256) key made with node:crypto,
 * answering the service's options the way a platform authenticator with user verification does.
 * Registration: attestation "none", clientDataJSON `webauthn.create`, authenticatorData with the RP
 * ID's hash, flags UP|UV|AT, counter 0 and the attested credential (its COSE key in CBOR). Sign-in:
 * clientDataJSON `webauthn.get`, flags UP|UV, the counter moved by one per assertion, and a DER
 * ECDSA-SHA256 signature over authenticatorData || SHA-256(clientDataJSON). Each piece can be
 * overridden (origin, challenge, flags, counter), so the suites can forge what a browser would not.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftAuthenticatorOptions {
  /** The origin the browser would report (the page's). */
  readonly origin: string;
}

export interface Forgery {
  readonly origin?: string;
  readonly challenge?: string;
  readonly flags?: number;
  readonly counter?: number;
  readonly rpId?: string;
}

interface OptionsLike {
  readonly challenge: string;
  readonly rp?: { readonly id?: string };
  readonly rpId?: string;
  readonly user?: { readonly id: string };
}

export interface RegistrationResponse {
  readonly id: string;
  readonly rawId: string;
  readonly type: "public-key";
  readonly response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  readonly authenticatorAttachment: "platform";
  readonly clientExtensionResults: Record<string, unknown>;
}

export interface AuthenticationResponse {
  readonly id: string;
  readonly rawId: string;
  readonly type: "public-key";
  readonly response: {
    clientDataJSON: string;
    authenticatorData: string;
    signature: string;
    userHandle?: string;
  };
  readonly authenticatorAttachment: "platform";
  readonly clientExtensionResults: Record<string, unknown>;
}

export interface SoftAuthenticator {
  readonly credentialId: string;
  /** The registration response to creation options (`{options}` of the enrollment options). */
  register(options: unknown, forgery?: Forgery): RegistrationResponse;
  /** An assertion for request options (`{options}` of the sign-in options); moves the counter. */
  assert(options: unknown, forgery?: Forgery): AuthenticationResponse;
}

export function createSoftAuthenticator(settings: SoftAuthenticatorOptions): SoftAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const credentialId = randomBytes(32);
  const id = credentialId.toString("base64url");
  let counter = 0;
  let userHandle: string | undefined;
  /** The credential as a browser hands it to the page: `response` after the client data. */
  const credential = <Response extends object>(clientData: Buffer, response: Response) => ({
    id,
    rawId: id,
    type: "public-key" as const,
    response: { clientDataJSON: clientData.toString("base64url"), ...response },
    authenticatorAttachment: "platform" as const,
    clientExtensionResults: {},
  });
  return {
    credentialId: id,
    register(raw, forgery = {}) {
      const options = raw as OptionsLike;
      const rpId = forgery.rpId ?? options.rp?.id ?? "localhost";
      userHandle = options.user?.id;
      const clientData = clientDataJSON(
        "webauthn.create",
        forgery.challenge ?? options.challenge,
        forgery.origin ?? settings.origin,
      );
      const attested = Buffer.concat([
        Buffer.alloc(16), // AAGUID: none
        u16(credentialId.length),
        credentialId,
        coseKeyOf(publicKey),
      ]);
      const authData = authenticatorData(
        rpId,
        forgery.flags ?? FLAG_UP | FLAG_UV | FLAG_AT,
        forgery.counter ?? 0,
        attested,
      );
      const attestationObject = cbor(
        new Map<string, unknown>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]),
      );
      return credential(clientData, {
        attestationObject: attestationObject.toString("base64url"),
        transports: ["internal"],
      });
    },
    assert(raw, forgery = {}) {
      const options = raw as OptionsLike;
      const rpId = forgery.rpId ?? options.rpId ?? "localhost";
      counter += 1;
      const clientData = clientDataJSON(
        "webauthn.get",
        forgery.challenge ?? options.challenge,
        forgery.origin ?? settings.origin,
      );
      const authData = authenticatorData(
        rpId,
        forgery.flags ?? FLAG_UP | FLAG_UV,
        forgery.counter ?? counter,
      );
      const signature = signAssertion(privateKey, authData, clientData);
      return credential(clientData, {
        authenticatorData: authData.toString("base64url"),
        signature: signature.toString("base64url"),
        ...(userHandle === undefined ? {} : { userHandle }),
      });
    },
  };
}

function clientDataJSON(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
}

function authenticatorData(rpId: string, flags: number, signCount: number, attested?: Buffer): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(signCount);
  return Buffer.concat([
    createHash("sha256").update(rpId, "utf8").digest(),
    Buffer.from([flags]),
    count,
    ...(attested === undefined ? [] : [attested]),
  ]);
}

function signAssertion(privateKey: KeyObject, authData: Buffer, clientData: Buffer): Buffer {
  const clientDataHash = createHash("sha256").update(clientData).digest();
  // node's ECDSA signatures are DER by default: WebAuthn's ES256 form.
  return sign("sha256", Buffer.concat([authData, clientDataHash]), privateKey);
}

/** The COSE_Key of a P-256 public key: {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}. */
function coseKeyOf(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" });
  return cbor(
    new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x as string, "base64url")],
      [-3, Buffer.from(jwk.y as string, "base64url")],
    ]),
  );
}

function u16(value: number): Buffer {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value);
  return out;
}

/** Just enough CBOR (RFC 8949) for the above: small integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  if (typeof value === "number") {
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    const parts: Buffer[] = [head(5, value.size)];
    for (const [key, inner] of value) parts.push(cbor(key), cbor(inner));
    return Buffer.concat(parts);
  }
  throw new TypeError(`no CBOR form for ${typeof value}`);
}

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  if (length < 65536) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  throw new RangeError("CBOR item too long for this encoder");
}
