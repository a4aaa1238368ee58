/**
 * Writes the localnet's program upgrade authority as a Solana CLI keypair file (64 bytes: seed then
 * public key, as JSON), so a suite can run against a separately started localnet exactly the way
 * `anchor test` runs it against a validator: `ANCHOR_WALLET=<file> ANCHOR_PROVIDER_URL=<url>`.
 * Localnet keys are derived from public labels: never use them for anything of value.
 *
 * Usage: npx tsx tests/support/write-localnet-wallet.ts <path>
 */
import { writeFileSync } from "node:fs";
import { LOCALNET_KEY_LABELS, localnetKey } from "@cpay/localnet/cluster";
import { getAddressEncoder } from "@solana/kit";

const path = process.argv[2];
if (path === undefined) {
  console.error("usage: write-localnet-wallet.ts <path>");
  process.exit(2);
}
const key = localnetKey(LOCALNET_KEY_LABELS.agentPolicyUpgradeAuthority);
const bytes = [...key.seed, ...getAddressEncoder().encode(key.address)];
writeFileSync(path, JSON.stringify(bytes), { mode: 0o600 });
console.log(key.address);
