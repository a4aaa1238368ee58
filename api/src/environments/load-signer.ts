/**
 * Loads the signing key a signer setting names (core/config/signer-setting.ts), as a kit
 * `TransactionPartialSigner` every transaction builder takes. Two providers:
 *
 * - `file:/path/keypair.json`: a Solana CLI keypair file (64 bytes as a JSON array). Refused when
 *   its group or others may read it, as ssh refuses a readable private key.
 * - `exec:/path/program`: a KMS-style provider; the service never holds the key. The program is run
 *   with the argument `pubkey` once at start and prints the key's base58 address on stdout; for each
 *   signature it is run with the argument `sign`, gets the message bytes on stdin and writes the
 *   64-byte ed25519 signature, raw, on stdout. Exit status 0 means success. Every signature is
 *   verified against the address before it is used, so a misbehaving provider is an error, never a
 *   transaction the cluster rejects.
 *
 * Nothing here logs or repeats a key, a key file's content or the program's output.
 */
import { execFile } from "node:child_process";
import { statSync } from "node:fs";
import { ConfigError } from "@cpay/ledger/config";
import {
  type Address,
  address,
  getPublicKeyFromAddress,
  type SignatureBytes,
  type SignatureDictionary,
  type TransactionPartialSigner,
  verifySignature,
} from "@solana/kit";
import { readKeypair } from "../chain/read-localnet-manifest";
import type { SignerSetting } from "../core/config/signer-setting";

/** How long the provider program may take for one answer. */
const EXEC_TIMEOUT_MS = 10_000;

/** Loads the signer a setting names: reads the file, or asks the program for its address. */
export async function loadSigner(name: string, setting: SignerSetting): Promise<TransactionPartialSigner> {
  return setting.provider === "file" ? fileSigner(name, setting.path) : execSigner(name, setting.path);
}

async function fileSigner(name: string, path: string): Promise<TransactionPartialSigner> {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    throw new ConfigError(`${name}: cannot read ${path} (${(error as NodeJS.ErrnoException).code})`);
  }
  if ((mode & 0o077) !== 0) {
    throw new ConfigError(
      `${name}: ${path} may be read by its group or others (mode ${(mode & 0o777).toString(8)}); chmod 600 it`,
    );
  }
  try {
    return await readKeypair(path);
  } catch (error) {
    throw new ConfigError(`${name}: ${(error as Error).message}`);
  }
}

async function execSigner(name: string, program: string): Promise<TransactionPartialSigner> {
  let signerAddress: Address;
  try {
    const printed = (await run(program, "pubkey", new Uint8Array())).toString("utf8").trim();
    signerAddress = address(printed);
  } catch (error) {
    throw new ConfigError(
      `${name}: ${program} pubkey did not print a base58 address (${describeRunFailure(error)})`,
    );
  }
  const publicKey = await getPublicKeyFromAddress(signerAddress);
  const sign = async (message: Uint8Array): Promise<SignatureBytes> => {
    let output: Buffer;
    try {
      output = await run(program, "sign", message);
    } catch (error) {
      throw new Error(`${name}: ${program} sign failed (${describeRunFailure(error)})`);
    }
    const signature = Uint8Array.from(output) as SignatureBytes;
    if (signature.length !== 64 || !(await verifySignature(publicKey, signature, message))) {
      throw new Error(`${name}: ${program} sign did not answer a valid signature by ${signerAddress}`);
    }
    return signature;
  };
  return {
    address: signerAddress,
    async signTransactions(transactions): Promise<readonly SignatureDictionary[]> {
      const signed: SignatureDictionary[] = [];
      for (const transaction of transactions) {
        const signature = await sign(Uint8Array.from(transaction.messageBytes));
        signed.push(Object.freeze({ [signerAddress]: signature }) as SignatureDictionary);
      }
      return signed;
    },
  };
}

/** Runs `program command` with `input` on stdin; its stdout as bytes. */
function run(program: string, command: string, input: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      program,
      [command],
      { encoding: "buffer", timeout: EXEC_TIMEOUT_MS, maxBuffer: 64 * 1024 },
      (error, stdout) => (error === null ? resolve(stdout) : reject(error)),
    );
    child.stdin?.on("error", () => {});
    child.stdin?.end(Buffer.from(input));
  });
}

/** The failure's kind only: the program's output or stderr may contain key material. */
function describeRunFailure(error: unknown): string {
  const failure = error as { code?: unknown; signal?: unknown; killed?: boolean };
  if (failure.killed === true) return "timed out or killed";
  if (typeof failure.code === "number") return `exit status ${failure.code}`;
  if (typeof failure.code === "string") return failure.code;
  return error instanceof Error ? error.name : "failed";
}
