/**
 * Deterministic keys for the program suites: the seed of `label` is `sha256("cpay program tests
 * <label>")`, so every run has the same addresses, the same PDA bumps and therefore the same
 * compute units (a PDA search costs ~1.5k CU per bump tried). Public seeds: test use only.
 */
import { createHash } from "node:crypto";
import { keyFromSeed, type LocalnetKey } from "@cpay/localnet/cluster";
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
