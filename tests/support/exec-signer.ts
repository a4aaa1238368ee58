/**
 * A KMS-style signing program for the `exec:` signer setting (api/src/environments/load-signer.ts),
 * written by a test: a Node script holding the path of a Solana CLI keypair file, answering
 * `pubkey` with the address and `sign` with the raw ed25519 signature of stdin. `misbehave` makes it
 * sign something else, as a broken provider would.
 */
import { generateKeyPairSync } from "node:crypto";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getAddressDecoder } from "@solana/kit";

/** A new keypair in a Solana CLI file (mode 0600) and its address. */
export function writeKeypairFile(dir: string, name: string): { path: string; address: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const seed = Buffer.from(privateKey.export({ format: "jwk" }).d as string, "base64url");
  const pub = Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url");
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify([...seed, ...pub]), { mode: 0o600 });
  return { path, address: getAddressDecoder().decode(pub) };
}

/** Writes the signing program for the keypair at `keypairPath` (whose address is `address`). */
export function writeExecSigner(
  dir: string,
  keypair: { readonly path: string; readonly address: string },
  options: { readonly misbehave?: boolean } = {},
): string {
  const script = join(dir, options.misbehave ? "bad-signer.cjs" : "signer.cjs");
  writeFileSync(
    script,
    `#!${process.execPath}
const { createPrivateKey, sign } = require("node:crypto");
const { readFileSync } = require("node:fs");
const bytes = Buffer.from(JSON.parse(readFileSync(${JSON.stringify(keypair.path)}, "utf8")));
const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), bytes.subarray(0, 32)]);
const key = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
if (process.argv[2] === "pubkey") {
  process.stdout.write(${JSON.stringify(keypair.address)} + "\\n");
} else if (process.argv[2] === "sign") {
  const chunks = [];
  process.stdin.on("data", (chunk) => chunks.push(chunk));
  process.stdin.on("end", () => {
    const message = Buffer.concat(chunks);
    process.stdout.write(sign(null, ${options.misbehave ? 'Buffer.concat([message, Buffer.from("x")])' : "message"}, key));
  });
} else {
  process.exit(2);
}
`,
  );
  chmodSync(script, 0o700);
  return script;
}
