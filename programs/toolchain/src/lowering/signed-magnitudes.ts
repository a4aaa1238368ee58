import type { FreshNames } from "./ir-module";

/** The unsigned magnitudes of two signed operands, and whether each is negative. */
export interface SignedMagnitudes {
  /** Lines computing the four values below. */
  lines: string[];
  aNegative: string;
  aMagnitude: string;
  bNegative: string;
  bMagnitude: string;
}

/**
 * `|a|` and `|b|` of `type` as `x < 0 ? 0 - x : x` (MIN's magnitude is 2^(N-1) read unsigned),
 * the step the signed multiplication and division expansions share; their locals are named
 * `<prefix>.an`, `.af`, `.am`, `.bn`, `.bf`, `.bm`.
 */
export function signedMagnitudes(
  type: string,
  a: string,
  b: string,
  prefix: string,
  names: FreshNames,
): SignedMagnitudes {
  const aNegative = names.local(`${prefix}.an`);
  const aFlip = names.local(`${prefix}.af`);
  const aMagnitude = names.local(`${prefix}.am`);
  const bNegative = names.local(`${prefix}.bn`);
  const bFlip = names.local(`${prefix}.bf`);
  const bMagnitude = names.local(`${prefix}.bm`);
  return {
    aNegative,
    aMagnitude,
    bNegative,
    bMagnitude,
    lines: [
      `${aNegative} = icmp slt ${type} ${a}, 0`,
      `${aFlip} = sub ${type} 0, ${a}`,
      `${aMagnitude} = select i1 ${aNegative}, ${type} ${aFlip}, ${type} ${a}`,
      `${bNegative} = icmp slt ${type} ${b}, 0`,
      `${bFlip} = sub ${type} 0, ${b}`,
      `${bMagnitude} = select i1 ${bNegative}, ${type} ${bFlip}, ${type} ${b}`,
    ],
  };
}
