/**
 * Labelled localnet keys: ed25519 keypairs whose 32-byte seed is `sha256("cpay localnet <label> v1")`.
 *
 * TEST / LOCALNET ONLY. Anyone can recompute these seeds from the label, so every key here is public
 * knowledge: never hold real funds with one, never use one on devnet or mainnet-beta. They exist so an
 * embedded or localnet cluster has the same program id, mint, faucet and fee reserve on every start
 * (an `Anchor.toml`, a fixture or a test can hard-code the addresses).
 *
 * Signing is synchronous (node:crypto), unlike kit's WebCrypto signers: the cluster must sign its own
 * transactions (faucet airdrops) inside synchronous port methods. `toSigner()` gives a kit signer for
 * code that builds transactions with kit.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign } from "node:crypto";
import {
  type Address,
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressDecoder,
  type KeyPairSigner,
} from "@solana/kit";

/** The labels the embedded cluster uses; the seed of each is `sha256("cpay localnet <label> v1")`. */
export const LOCALNET_KEY_LABELS = {
  /** The agent-policy program id (8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf). */
  agentPolicyProgram: "agent_policy program",
  /** Pays for and holds upgrade authority over the agent-policy program. */
  agentPolicyUpgradeAuthority: "agent_policy upgrade authority",
  /** The upgradeable-loader buffer the program bytes are written to before deploy. */
  agentPolicyBuffer: "agent_policy buffer",
  /** The USDG mint address (8mZQq32bLyGan896u6frcQiQ2uJCnfRukGFJ3bPWYxgnpm). */
  usdgMint: "usdg mint",
  /** USDG mint authority and ConfidentialTransferMint authority. */
  usdgMintAuthority: "usdg mint authority",
  /** Funded in genesis; every airdrop is a System transfer signed by it. */
  faucet: "faucet",
  /** The service's fee payer on localnet unless another address is configured. */
  feeReserve: "fee reserve",
} as const;

/** A labelled localnet keypair (see the module doc: public seed, never for real funds). */
export interface LocalnetKey {
  readonly label: string;
  readonly address: Address;
  /** The 32-byte ed25519 seed (the "private key bytes" kit and Solana CLI keypairs start from). */
  readonly seed: Uint8Array;
  /** Ed25519 signature of `message`, synchronously. */
  signBytes(message: Uint8Array): Uint8Array;
  /** The same key as a kit `KeyPairSigner` (WebCrypto, async to create). */
  toSigner(): Promise<KeyPairSigner>;
}

// PKCS#8 wrapping of a raw ed25519 seed (RFC 8410): node:crypto imports private keys only in a container.
const PKCS8_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

const cache = new Map<string, LocalnetKey>();

/** The seed of a labelled key: `sha256("cpay localnet <label> v1")`. */
export function localnetSeed(label: string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(`cpay localnet ${label} v1`).digest());
}

/** An ed25519 key from a 32-byte seed, with a synchronous signer. */
export function keyFromSeed(label: string, seed: Uint8Array): LocalnetKey {
  if (seed.length !== 32) throw new Error(`ed25519 seed must be 32 bytes, got ${seed.length}`);
  const der = new Uint8Array(PKCS8_ED25519_PREFIX.length + 32);
  der.set(PKCS8_ED25519_PREFIX);
  der.set(seed, PKCS8_ED25519_PREFIX.length);
  const privateKey: KeyObject = createPrivateKey({ key: Buffer.from(der), format: "der", type: "pkcs8" });
  // SPKI of an ed25519 key ends with the raw 32-byte public key.
  const spki = createPublicKey(privateKey).export({ format: "der", type: "spki" });
  const publicKey = new Uint8Array(spki.subarray(spki.length - 32));
  const seedCopy = Uint8Array.from(seed);
  return {
    label,
    address: getAddressDecoder().decode(publicKey),
    seed: seedCopy,
    signBytes: (message) => new Uint8Array(sign(null, message, privateKey)),
    toSigner: () => createKeyPairSignerFromPrivateKeyBytes(Uint8Array.from(seedCopy), true),
  };
}

/** The labelled localnet key for `label` (memoized; see the module doc for the derivation). */
export function localnetKey(label: string): LocalnetKey {
  let key = cache.get(label);
  if (key === undefined) {
    key = keyFromSeed(label, localnetSeed(label));
    cache.set(label, key);
  }
  return key;
}
