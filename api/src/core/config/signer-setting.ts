/**
 * A signer setting (`<ENV>_FEE_RESERVE_SIGNER`, `<ENV>_REGISTRAR_SIGNER`) names a signing key without
 * holding it. Two providers:
 *
 * - `file:/path/keypair.json`: a Solana CLI keypair file (64 bytes as a JSON array);
 * - `exec:/path/program`: a KMS-style provider; the service never holds the key.
 *
 * Parsing is configuration (it reads the text only); loading the key, with the checks each provider
 * needs, is environments/load-signer.ts.
 */
import { ConfigError } from "@cpay/ledger/config";

/** What a signer setting names, parsed but not yet loaded. */
export type SignerSetting =
  | { readonly provider: "file"; readonly path: string }
  | { readonly provider: "exec"; readonly path: string };

/** Parses `file:...` or `exec:...`; `name` is the variable, for the message. */
export function parseSignerSetting(name: string, value: string): SignerSetting {
  const match = /^(file|exec):(.+)$/.exec(value);
  if (match === null) {
    throw new ConfigError(`${name} must be file:/path/to/keypair.json or exec:/path/to/signing-program`);
  }
  return { provider: match[1] as "file" | "exec", path: match[2] as string };
}
