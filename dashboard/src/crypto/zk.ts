/**
 * The zk-sdk's web build (WebAssembly), loaded once and only after an unlock: a visitor who never
 * unlocks never downloads it. Vite emits the .wasm as a hashed asset (the build's own
 * `new URL("index_bg.wasm", import.meta.url)`), fetched from this origin and compiled under the CSP's
 * 'wasm-unsafe-eval'.
 *
 * Used for what needs the ElGamal keypair: the balance proof (sdk/src/confidential/balance-proof.ts)
 * and the discrete-log decryption of an API key's encrypted total
 * (sdk/src/confidential/encrypted-total.ts). A transfer's amount never goes through here: sealed
 * details are opened with one ECDH + AES-GCM (`@cpay/sdk/sealed`).
 */

import { bigIntToLittleEndian, type ViewingKeys } from "@cpay/sdk/sealed";
import { RistrettoPoint } from "@noble/curves/ed25519";
import { MAX_U64 } from "../lib/amounts";

type ZkSdk = typeof import("@solana/zk-sdk/web");
let loading: Promise<ZkSdk> | null = null;

/**
 * Loads and instantiates the module once. `wasm` (the module's bytes) is for a runtime without the
 * page's fetch of its own URL (the unit tests in Node); the page passes nothing.
 */
export function loadZkSdk(wasm?: BufferSource): Promise<ZkSdk> {
  loading ??= import("@solana/zk-sdk/web").then(async (zk) => {
    await zk.default(wasm === undefined ? undefined : { module_or_path: wasm });
    return zk;
  });
  return loading;
}

/** The zk-sdk keys of the viewing keys (the same derivation as sdk/src/confidential/keys.ts). */
async function zkKeys(keys: ViewingKeys) {
  const zk = await loadZkSdk();
  const keypair = zk.ElGamalKeypair.fromSecretKey(
    zk.ElGamalSecretKey.fromBytes(bigIntToLittleEndian(keys.elgamalScalar, 32)),
  );
  return { zk, keypair, ae: zk.AeKey.fromBytes(keys.aeKey) };
}

/** Enc(x) -> Enc(x - amount): amount*G out of the commitment (ciphertext-arithmetic.ts). */
function subtractAmount(ciphertext: Uint8Array, amount: bigint): Uint8Array {
  const commitment = RistrettoPoint.fromHex(ciphertext.subarray(0, 32));
  const handle = RistrettoPoint.fromHex(ciphertext.subarray(32, 64));
  const taken = amount === 0n ? RistrettoPoint.ZERO : RistrettoPoint.BASE.multiply(amount);
  const out = new Uint8Array(64);
  out.set(commitment.subtract(taken).toRawBytes(), 0);
  out.set(handle.toRawBytes(), 32);
  return out;
}

export type ProvenBalance =
  | { readonly kind: "proven"; readonly amount: bigint; readonly proof: Uint8Array }
  | { readonly kind: "undecryptable" }
  | { readonly kind: "unproven"; readonly amount: bigint };

/**
 * Reads the available balance from the token account's ciphertexts: the AE copy decrypts the amount
 * (AES, instant), then a ZeroCiphertext proof that `available - amount*G` encrypts zero under the
 * account's key — the balance proof the API verifies (format v1: version, amount, proof data). It
 * succeeds only when the stated amount is exactly what the on-chain ElGamal balance holds;
 * `unproven` means the AE copy lags the chain (a credit raced its update).
 */
export async function proveBalance(
  keys: ViewingKeys,
  availableBalance: Uint8Array,
  decryptableBalance: Uint8Array,
): Promise<ProvenBalance> {
  const { zk, keypair, ae } = await zkKeys(keys);
  const amount = zk.AeCiphertext.fromBytes(decryptableBalance)?.decrypt(ae);
  if (amount === undefined || amount < 0n || amount > MAX_U64) return { kind: "undecryptable" };
  const remainder = zk.ElGamalCiphertext.fromBytes(subtractAmount(availableBalance, amount));
  if (remainder === undefined) return { kind: "undecryptable" };
  let data: Uint8Array;
  try {
    data = new zk.ZeroCiphertextProofData(keypair, remainder).toBytes();
  } catch {
    return { kind: "unproven", amount };
  }
  const proof = new Uint8Array(1 + 8 + data.length);
  proof[0] = 1;
  proof.set(bigIntToLittleEndian(amount, 8), 1);
  proof.set(data, 9);
  return { kind: "proven", amount, proof };
}

function isZero(bytes: Uint8Array): boolean {
  return bytes.every((byte) => byte === 0);
}

/**
 * An API key's running total (encrypted-total.ts format v1: version, lo, hi ciphertexts; total =
 * lo + hi * 2^16). Two discrete logs of at most 32 bits each (~0.3 s in WASM; an all-zero part is
 * free). Null when it does not decrypt with these keys.
 */
export async function decryptEncryptedTotal(keys: ViewingKeys, total: Uint8Array): Promise<bigint | null> {
  if (total.length !== 129 || total[0] !== 1) return null;
  const { zk, keypair } = await zkKeys(keys);
  const part = (bytes: Uint8Array): bigint | null => {
    if (isZero(bytes)) return 0n;
    const ciphertext = zk.ElGamalCiphertext.fromBytes(bytes);
    if (ciphertext === undefined) return null;
    try {
      return keypair.secret().decrypt(ciphertext);
    } catch {
      return null;
    }
  };
  const lo = part(total.subarray(1, 65));
  if (lo === null) return null;
  // Let the page paint between the two discrete logs.
  await new Promise((done) => setTimeout(done, 0));
  const hi = part(total.subarray(65, 129));
  return hi === null ? null : lo + (hi << 16n);
}
