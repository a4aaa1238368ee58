import type { FreshNames, IrModule } from "./ir-module";

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
  let rewritten = 0;
  for (const chunk of module.chunks) {
    if (chunk.kind !== "function") continue;
    const body: string[] = [];
    for (const line of chunk.body) {
      const match = line.includes(" = s") ? line.match(SIGNED_DIVISION) : null;
      if (!match) {
        body.push(line);
        continue;
      }
      const [, pad, result, op, type, a, b] = match as unknown as [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      body.push(
        ...expand(op as "sdiv" | "srem", type, a.trim(), b.trim(), result, names).map((l) => `${pad}${l}`),
      );
      rewritten++;
    }
    chunk.body = body;
  }
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
  const aNeg = names.local("div.an");
  const aFlip = names.local("div.af");
  const aMag = names.local("div.am");
  const bNeg = names.local("div.bn");
  const bFlip = names.local("div.bf");
  const bMag = names.local("div.bm");
  const unsigned = names.local("div.u");
  const flipped = names.local("div.uf");
  const lines = [
    `${aNeg} = icmp slt ${type} ${a}, 0`,
    `${aFlip} = sub ${type} 0, ${a}`,
    `${aMag} = select i1 ${aNeg}, ${type} ${aFlip}, ${type} ${a}`,
    `${bNeg} = icmp slt ${type} ${b}, 0`,
    `${bFlip} = sub ${type} 0, ${b}`,
    `${bMag} = select i1 ${bNeg}, ${type} ${bFlip}, ${type} ${b}`,
  ];
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
