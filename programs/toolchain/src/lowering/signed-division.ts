import { expandLines, type FreshNames, type IrModule } from "./ir-module";
import { signedMagnitudes } from "./signed-magnitudes";

const SIGNED_DIVISION =
  /^(\s*)(%[-a-zA-Z$._0-9]+|%"[^"]*") = (sdiv|srem)(?: exact)? (i8|i16|i32|i64) ([^,]+), ([^,!]+?)(,\s*!.*)?$/;

/**
 * Rewrites `sdiv`/`srem` on i8..i64 into `udiv`/`urem` on magnitudes plus a sign fix-up.
 *
 * SBPF v0 (and BPF before cpu v4) has only unsigned division; upstream llc stops with
 * "unsupported signed division, please convert to unsigned div/mod". Rust's semantics carry over
 * exactly: the quotient truncates toward zero (negated when the signs differ) and the remainder
 * takes the dividend's sign. The two cases Rust traps on before dividing — division by zero and
 * MIN / -1 — are undefined in LLVM IR, so whatever the expansion yields there is fine; MIN's
 * magnitude is 2^(N-1) when read unsigned, so MIN / 2 and friends are exact. Constant operands
 * fold away at llc -O3. i128 is refused elsewhere.
 */
export function lowerSignedDivision(module: IrModule, names: FreshNames): { rewritten: number } {
  const rewritten = expandLines(module, (line) => {
    const match = line.includes(" = s") ? line.match(SIGNED_DIVISION) : null;
    if (!match) return undefined;
    const [, , result, op, type, a, b] = match as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    return expand(op as "sdiv" | "srem", type, a.trim(), b.trim(), result, names);
  });
  return { rewritten };
}

function expand(
  op: "sdiv" | "srem",
  type: string,
  a: string,
  b: string,
  result: string,
  names: FreshNames,
): string[] {
  const {
    lines,
    aNegative: aNeg,
    aMagnitude: aMag,
    bNegative: bNeg,
    bMagnitude: bMag,
  } = signedMagnitudes(type, a, b, "div", names);
  const unsigned = names.local("div.u");
  const flipped = names.local("div.uf");
  if (op === "sdiv") {
    const negative = names.local("div.neg");
    lines.push(
      `${unsigned} = udiv ${type} ${aMag}, ${bMag}`,
      `${negative} = xor i1 ${aNeg}, ${bNeg}`,
      `${flipped} = sub ${type} 0, ${unsigned}`,
      `${result} = select i1 ${negative}, ${type} ${flipped}, ${type} ${unsigned}`,
    );
  } else {
    lines.push(
      `${unsigned} = urem ${type} ${aMag}, ${bMag}`,
      `${flipped} = sub ${type} 0, ${unsigned}`,
      `${result} = select i1 ${aNeg}, ${type} ${flipped}, ${type} ${unsigned}`,
    );
  }
  return lines;
}
