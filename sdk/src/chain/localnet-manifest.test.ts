import { describe, expect, it } from "vitest";
import { LOCALNET_MANIFEST_FORMAT, parseLocalnetManifest } from "./localnet-manifest";

const manifest = {
  format: LOCALNET_MANIFEST_FORMAT,
  rpcUrl: "http://127.0.0.1:8899",
  wsUrl: "ws://127.0.0.1:8900",
  genesisHash: "4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn",
  programId: "11111111111111111111111111111111",
  usdgMint: "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
  keypairs: {
    feeReserve: "keys/fee-reserve.json",
    programUpgradeAuthority: "keys/program-upgrade-authority.json",
    usdgMintAuthority: "keys/usdg-mint-authority.json",
  },
};

describe("the localnet manifest", () => {
  it("reads the format the localnet writes", () => {
    expect(parseLocalnetManifest(JSON.parse(JSON.stringify(manifest)))).toEqual(manifest);
  });

  it("refuses another format version, a bad address and a missing keypair, naming the field", () => {
    expect(() => parseLocalnetManifest({ ...manifest, format: "cpay-localnet/2" })).toThrow(/format/);
    expect(() => parseLocalnetManifest({ ...manifest, usdgMint: "not-an-address" })).toThrow(/usdgMint/);
    expect(() =>
      parseLocalnetManifest({ ...manifest, keypairs: { ...manifest.keypairs, feeReserve: undefined } }),
    ).toThrow(/feeReserve/);
  });
});
