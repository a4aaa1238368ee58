/**
 * Keys the deploy takes from the command line: Solana CLI keypair files (a JSON array of 64 bytes,
 * the ed25519 seed then the public key), or a bare base58 public key where only the address is
 * needed. A key's secret never leaves this module except inside a kit signer, and no error message
 * quotes a file's contents.
 */
import { existsSync, readFileSync } from "node:fs";
import { type Address, createKeyPairSignerFromBytes, isAddress, type KeyPairSigner } from "@solana/kit";
import { DeployError } from "./deploy-error";

/** The signer in the Solana CLI keypair file at `path`; DeployError naming the file otherwise. */
export async function readKeypairFile(path: string, what: string): Promise<KeyPairSigner> {
  if (!existsSync(path)) throw new DeployError(`${what}: no keypair file at ${path}`);
  let bytes: unknown;
  try {
    bytes = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw new DeployError(`${what}: ${path} is not a Solana CLI keypair file (JSON array of 64 bytes)`);
  }
  if (
    !Array.isArray(bytes) ||
    bytes.length !== 64 ||
    !bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
  ) {
    throw new DeployError(`${what}: ${path} is not a Solana CLI keypair file (JSON array of 64 bytes)`);
  }
  try {
    return await createKeyPairSignerFromBytes(Uint8Array.from(bytes as number[]));
  } catch {
    // kit refuses a file whose public half does not belong to its seed.
    throw new DeployError(
      `${what}: the keypair in ${path} is inconsistent (its public key is not its seed's)`,
    );
  }
}

/** `text` as an address: a base58 public key as given, or the public key of a keypair file. */
export async function addressOrKeypairFile(text: string, what: string): Promise<Address> {
  if (isAddress(text)) return text;
  return (await readKeypairFile(text, what)).address;
}
