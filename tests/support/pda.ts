/**
 * Program-derived addresses with a chosen bump, to show the program accepts only the canonical one
 * (the highest bump whose hash is off the curve, as `find_program_address` returns).
 */
import { createHash } from "node:crypto";
import {
  type Address,
  getAddressDecoder,
  getAddressEncoder,
  getProgramDerivedAddress,
  isOffCurveAddress,
} from "@solana/kit";

/** `sha256(seeds ++ [bump] ++ program ++ "ProgramDerivedAddress")` if off the curve, else null. */
export function pdaWithBump(program: Address, seeds: readonly Uint8Array[], bump: number): Address | null {
  const hash = createHash("sha256");
  for (const seed of seeds) hash.update(seed);
  hash.update(Uint8Array.of(bump));
  hash.update(new Uint8Array(getAddressEncoder().encode(program)));
  hash.update("ProgramDerivedAddress");
  const candidate = getAddressDecoder().decode(new Uint8Array(hash.digest()));
  return isOffCurveAddress(candidate) ? candidate : null;
}

/** A valid PDA of `seeds` under `program` with a bump below the canonical one. */
export async function nonCanonicalPda(
  program: Address,
  seeds: readonly Uint8Array[],
): Promise<{ readonly address: Address; readonly bump: number; readonly canonicalBump: number }> {
  const [, canonicalBump] = await getProgramDerivedAddress({ programAddress: program, seeds: [...seeds] });
  for (let bump = canonicalBump - 1; bump >= 0; bump -= 1) {
    const address = pdaWithBump(program, seeds, bump);
    if (address !== null) return { address, bump, canonicalBump };
  }
  throw new Error("no non-canonical bump exists for these seeds");
}
