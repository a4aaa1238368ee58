/**
 * Reads what the localnet wrote beside its chain store (the format: sdk/src/chain/localnet-manifest.ts): its URLs,
 * genesis hash, program id and USDG mint, and the keypairs the service signs with on a test cluster.
 * A missing or malformed file stops the service with a message naming the file and what to do.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ConfigError } from "@cpay/ledger/config";
import { type LocalnetManifest, parseLocalnetManifest } from "@cpay/sdk/chain";
import { createKeyPairSignerFromBytes, type KeyPairSigner } from "@solana/kit";
import { z } from "zod";

export interface LocalnetIdentity {
  readonly manifestPath: string;
  readonly rpcUrl: string;
  readonly wsUrl: string;
  readonly genesisHash: string;
  readonly programId: string;
  readonly usdgMint: string;
  readonly feeReserve: KeyPairSigner;
  readonly programUpgradeAuthority: KeyPairSigner;
  readonly usdgMintAuthority: KeyPairSigner;
}

export async function readLocalnetManifest(manifestPath: string): Promise<LocalnetIdentity> {
  let text: string;
  try {
    text = readFileSync(manifestPath, "utf8");
  } catch (error) {
    throw new ConfigError(
      `no localnet manifest at ${manifestPath} (${(error as NodeJS.ErrnoException).code ?? "unreadable"}): ` +
        "start the localnet first (npm run localnet), or point LOCALNET_DIR at its localnet directory",
    );
  }
  let parsed: LocalnetManifest;
  try {
    parsed = parseLocalnetManifest(JSON.parse(text));
  } catch (error) {
    throw new ConfigError(
      `the localnet manifest ${manifestPath} is not one this service reads (${describe(error)}); ` +
        "restart the localnet so it rewrites it",
    );
  }
  const dir = dirname(manifestPath);
  const signer = (file: string) => readKeypair(resolve(dir, file));
  return {
    manifestPath,
    rpcUrl: parsed.rpcUrl,
    wsUrl: parsed.wsUrl,
    genesisHash: parsed.genesisHash,
    programId: parsed.programId,
    usdgMint: parsed.usdgMint,
    feeReserve: await signer(parsed.keypairs.feeReserve),
    programUpgradeAuthority: await signer(parsed.keypairs.programUpgradeAuthority),
    usdgMintAuthority: await signer(parsed.keypairs.usdgMintAuthority),
  };
}

/** A Solana CLI keypair file: a JSON array of 64 bytes (seed, then public key). */
export async function readKeypair(path: string): Promise<KeyPairSigner> {
  let bytes: unknown;
  try {
    bytes = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`cannot read the keypair file ${path}: ${describe(error)}`);
  }
  const valid =
    Array.isArray(bytes) &&
    bytes.length === 64 &&
    bytes.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255);
  if (!valid)
    throw new ConfigError(`the keypair file ${path} is not 64 bytes as a JSON array (Solana CLI format)`);
  try {
    return await createKeyPairSignerFromBytes(Uint8Array.from(bytes as number[]));
  } catch {
    // The message of a key import failure could echo key material: name the file only.
    throw new ConfigError(`the keypair file ${path} does not hold a valid ed25519 keypair`);
  }
}

function describe(error: unknown): string {
  if (error instanceof z.ZodError)
    return error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
  return error instanceof Error ? error.message : String(error);
}
