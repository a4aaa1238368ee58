/**
 * Reads an API key's "total USDG transferred" on the operator's machine, never in the service:
 * the service stores only an ElGamal ciphertext under the account's key (sdk `encrypted-total`),
 * and the CLI decrypts it with the confidential secret the holder was given at account creation.
 * An agent's keys derive from its owner's secret and its handle, so the owner's secret reads its
 * agents' totals too.
 */

import { formatDecimalAmount, USDG_DECIMALS } from "@cpay/sdk";
import {
  decryptEncryptedTotal,
  deriveAgentConfidentialSecret,
  deriveConfidentialKeys,
  encryptedTotalFromBase64,
  importConfidentialSecret,
  isConfidentialError,
} from "@cpay/sdk/confidential";
import { CliError, EXIT } from "./cli-error";

/** The total as a USDG decimal string ("0" before any transfer); CliError when the secret does not fit. */
export function decryptTransferredTotalUsdg(input: {
  readonly encryptedTotal: string | null;
  readonly account: { readonly handle: string; readonly type: string };
  readonly secret: string;
}): string {
  return formatDecimalAmount(decryptTransferredTotal(input), USDG_DECIMALS);
}

/** The total in base units (0 before any transfer); CliError when the secret does not fit. */
export function decryptTransferredTotal(input: {
  readonly encryptedTotal: string | null;
  readonly account: { readonly handle: string; readonly type: string };
  readonly secret: string;
}): bigint {
  let secret: Uint8Array;
  try {
    secret = importConfidentialSecret(input.secret.trim());
  } catch {
    throw new CliError(
      "--secret is not a confidential secret (44 characters of base64, as printed when the account was created)",
      EXIT.usage,
    );
  }
  if (input.encryptedTotal === null) return 0n;
  const ownSecret =
    input.account.type === "agent"
      ? deriveAgentConfidentialSecret(secret, input.account.handle.replace(/^@/, ""))
      : secret;
  try {
    return decryptEncryptedTotal(
      encryptedTotalFromBase64(input.encryptedTotal),
      deriveConfidentialKeys(ownSecret),
    );
  } catch (error) {
    if (isConfidentialError(error, "balance_undecryptable")) {
      throw new CliError(
        `this secret does not decrypt the total of ${input.account.handle}: use the secret printed when ` +
          `${input.account.type === "agent" ? "its owner" : "it"} was created`,
        EXIT.refused,
      );
    }
    throw error;
  }
}
