import { zk } from "@cpay/sdk/confidential";
import { describe, expect, it } from "vitest";
import { usdgMintSettingsFromEnv } from "./usdg-mint-env";

describe("the USDG mint settings of the localnet process", () => {
  it("defaults to auto-approve without an auditor", () => {
    expect(usdgMintSettingsFromEnv({})).toEqual({ autoApproveNewAccounts: true, auditorElgamalPubkey: null });
    expect(usdgMintSettingsFromEnv({ LOCALNET_USDG_AUTO_APPROVE: "", LOCALNET_USDG_AUDITOR: "" })).toEqual({
      autoApproveNewAccounts: true,
      auditorElgamalPubkey: null,
    });
  });

  it("reads issuer approval and an auditor key", () => {
    // Given an auditor's ElGamal public key in base64
    const auditor = new zk.ElGamalKeypair().pubkey().toBytes();
    const settings = usdgMintSettingsFromEnv({
      LOCALNET_USDG_AUTO_APPROVE: "0",
      LOCALNET_USDG_AUDITOR: Buffer.from(auditor).toString("base64"),
    });

    // Then the mint is made to wait for the issuer and to carry exactly that key
    expect(settings.autoApproveNewAccounts).toBe(false);
    expect(settings.auditorElgamalPubkey).toEqual(auditor);
    expect(usdgMintSettingsFromEnv({ LOCALNET_USDG_AUTO_APPROVE: "1" }).autoApproveNewAccounts).toBe(true);
  });

  it("refuses values it cannot mean", () => {
    expect(() => usdgMintSettingsFromEnv({ LOCALNET_USDG_AUTO_APPROVE: "false" })).toThrow(
      "LOCALNET_USDG_AUTO_APPROVE must be 1 or 0, got false",
    );
    // 31 bytes, and 32 bytes that are no curve point
    for (const bytes of [new Uint8Array(31), new Uint8Array(32).fill(0xff)]) {
      expect(() =>
        usdgMintSettingsFromEnv({ LOCALNET_USDG_AUDITOR: Buffer.from(bytes).toString("base64") }),
      ).toThrow("LOCALNET_USDG_AUDITOR must be an ElGamal public key");
    }
  });
});
