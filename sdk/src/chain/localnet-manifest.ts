/**
 * The localnet's manifest, `localnet.json`, which the localnet process writes beside its chain store once
 * it serves: its RPC and PubSub URLs, genesis hash, program id and USDG mint, and the keypair files
 * (Solana CLI format, relative to the manifest's directory) of the keys a service needs on a test
 * cluster. One format, defined here: the localnet writes it (localnet/src/rpc/localnet-manifest.ts),
 * the API, the tests and the bench read it through `parseLocalnetManifest`.
 */
import { isAddress } from "@solana/kit";
import { z } from "zod";

export const LOCALNET_MANIFEST_FILE = "localnet.json";
export const LOCALNET_MANIFEST_FORMAT = "cpay-localnet/1";

const base58Address = z.string().refine((value): boolean => isAddress(value), "not a base58 address");

export const localnetManifestSchema = z.object({
  format: z.literal(LOCALNET_MANIFEST_FORMAT),
  rpcUrl: z.url(),
  wsUrl: z.url(),
  genesisHash: z.string().min(32).max(44),
  programId: base58Address,
  usdgMint: base58Address,
  keypairs: z.object({
    feeReserve: z.string().min(1),
    programUpgradeAuthority: z.string().min(1),
    usdgMintAuthority: z.string().min(1),
  }),
});

export type LocalnetManifest = z.infer<typeof localnetManifestSchema>;

/** The manifest in `json` (already parsed from the file); throws zod's error naming what is wrong. */
export function parseLocalnetManifest(json: unknown): LocalnetManifest {
  return localnetManifestSchema.parse(json);
}
