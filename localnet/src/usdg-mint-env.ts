/**
 * The USDG mint's settings from the localnet process's environment (applied at genesis only: a
 * continued chain keeps the mint it has, as a real mint's settings stay what they were made with).
 *
 * LOCALNET_USDG_AUTO_APPROVE: `1` (default) approves confidential accounts as they are configured;
 * `0` makes the issuer approve each one, like Paxos' USDG on mainnet. LOCALNET_USDG_AUDITOR: the
 * auditor's ElGamal public key, base64 of its 32 bytes (default: no auditor).
 */
import { zk } from "@cpay/sdk/confidential";
import { DEFAULT_USDG_MINT_SETTINGS, type UsdgMintSettings } from "./cluster/usdg-mint";

export function usdgMintSettingsFromEnv(env: NodeJS.ProcessEnv): UsdgMintSettings {
  return {
    autoApproveNewAccounts: autoApproveOf(env.LOCALNET_USDG_AUTO_APPROVE),
    auditorElgamalPubkey: auditorOf(env.LOCALNET_USDG_AUDITOR),
  };
}

function autoApproveOf(raw: string | undefined): boolean {
  if (raw === undefined || raw === "") return DEFAULT_USDG_MINT_SETTINGS.autoApproveNewAccounts;
  if (raw === "1") return true;
  if (raw === "0") return false;
  throw new Error(`LOCALNET_USDG_AUTO_APPROVE must be 1 or 0, got ${raw}`);
}

function auditorOf(raw: string | undefined): Uint8Array | null {
  if (raw === undefined || raw === "") return null;
  const bytes = new Uint8Array(Buffer.from(raw, "base64"));
  // A key that is not a curve point would make every confidential transfer's proofs fail.
  if (bytes.length !== 32 || !isElGamalPubkey(bytes)) {
    throw new Error("LOCALNET_USDG_AUDITOR must be an ElGamal public key: base64 of its 32 bytes");
  }
  return bytes;
}

function isElGamalPubkey(bytes: Uint8Array): boolean {
  try {
    return zk.ElGamalPubkey.fromBytes(bytes) !== undefined;
  } catch {
    return false;
  }
}
