/**
 * Deterministic keys for the program suites: the seed of `label` is `sha256("cpay program tests
 * <label>")`, so every run has the same addresses, the same PDA bumps and therefore the same
 * compute units (a PDA search costs ~1.5k CU per bump tried). Public seeds: test use only.
 */
import { createHash } from "node:crypto";
import { type EmbeddedCluster, keyFromSeed, type LocalnetKey } from "@cpay/localnet/cluster";
import type { KeyPairSigner } from "@solana/kit";

/** The labelled test key (its seed is public: never hold anything of value with it). */
export function testKey(label: string): LocalnetKey {
  const seed = createHash("sha256").update(`cpay program tests ${label}`).digest();
  return keyFromSeed(`test ${label}`, new Uint8Array(seed));
}

/** The labelled test key as a kit signer. */
export function testSigner(label: string): Promise<KeyPairSigner> {
  return testKey(label).toSigner();
}

/**
 * Who acts on a program test cluster: the fee payer, the config's registrar and a stranger (test
 * keys, the same every run) and the config's admin, the cluster's program upgrade authority.
 */
export async function programTestSigners(cluster: EmbeddedCluster): Promise<{
  readonly feePayer: KeyPairSigner;
  readonly registrar: KeyPairSigner;
  readonly stranger: KeyPairSigner;
  readonly admin: KeyPairSigner;
}> {
  const [feePayer, registrar, stranger, admin] = await Promise.all([
    testSigner("fee payer"),
    testSigner("registrar"),
    testSigner("stranger"),
    cluster.keys.programUpgradeAuthority.toSigner(),
  ]);
  return { feePayer, registrar, stranger, admin };
}
