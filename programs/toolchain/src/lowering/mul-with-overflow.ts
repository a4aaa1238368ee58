import { expandLines, type FreshNames, type IrModule, parseArgument, parseCall } from "./ir-module";
import { signedMagnitudes } from "./signed-magnitudes";

const INTRINSIC = /^llvm\.([us])mul\.with\.overflow\.i64$/;
const SIGN_BIT = "-9223372036854775808";
const SIGNED_MAX = "9223372036854775807";

/**
 * Expands `llvm.umul.with.overflow.i64` / `llvm.smul.with.overflow.i64` (`checked_mul`,
 * `saturating_mul`, `overflowing_mul`, overflow-checked `*` on u64/i64) in place.
 *
 * The BPF backend computes the overflow bit through a 128-bit multiply, i.e. a call to
 * `__multi3`, which it cannot emit. The replacement is branch-free straight-line IR with the
 * same `{ i64, i1 }` result: the wrapped product, and an overflow bit from a division check
 * (`p / a != b`, with the divisor forced to 1 when `a == 0` because SBPF faults on division by
 * zero). It is written at the call site rather than as a helper function because llc does not
 * inline, and a helper returning `{ i64, i1 }` would need two return registers, which BPF lacks.
 *
 * Signed: the magnitudes are multiplied unsigned; the result overflows when that overflows or
 * exceeds 2^63 - 1 (2^63 when the signs differ, since -2^63 is representable).
 */
export function lowerMulWithOverflow(module: IrModule, names: FreshNames): { rewritten: number } {
  const rewritten = expandLines(module, (line) => {
    const call = line.includes("mul.with.overflow.i64") ? parseCall(line, INTRINSIC) : undefined;
    if (!call) return undefined;
    const [a, b] = call.args.map((arg) => parseArgument(arg).value);
    if (!a || !b || !call.result) throw new Error(`malformed ${call.callee} call: ${line}`);
    const signed = call.callee.startsWith("llvm.smul");
    return signed ? signedExpansion(a, b, call.result, names) : unsignedExpansion(a, b, call.result, names);
  });
  return { rewritten };
}

/** Lines computing `{ a*b, overflowed }` into `result`; `product` is written by the caller's lines. */
function unsignedOverflowBit(
  a: string,
  b: string,
  product: string,
  names: FreshNames,
): { lines: string[]; bit: string } {
  const nonzero = names.local("mul.nz");
  const divisor = names.local("mul.div");
  const quotient = names.local("mul.q");
  const differs = names.local("mul.ne");
  const bit = names.local("mul.ov");
  return {
    bit,
    lines: [
      `${nonzero} = icmp ne i64 ${a}, 0`,
      `${divisor} = select i1 ${nonzero}, i64 ${a}, i64 1`,
      `${quotient} = udiv i64 ${product}, ${divisor}`,
      `${differs} = icmp ne i64 ${quotient}, ${b}`,
      `${bit} = and i1 ${nonzero}, ${differs}`,
    ],
  };
}

function unsignedExpansion(a: string, b: string, result: string, names: FreshNames): string[] {
  const product = names.local("mul.p");
  const overflow = unsignedOverflowBit(a, b, product, names);
  return [
    `${product} = mul i64 ${a}, ${b}`,
    ...overflow.lines,
    ...pack(product, overflow.bit, result, names),
  ];
}

function signedExpansion(a: string, b: string, result: string, names: FreshNames): string[] {
  const operands = signedMagnitudes("i64", a, b, "smul", names);
  const magnitude = names.local("smul.m");
  const overflow = unsignedOverflowBit(operands.aMagnitude, operands.bMagnitude, magnitude, names);
  const negative = names.local("smul.neg");
  const limit = names.local("smul.lim");
  const tooBig = names.local("smul.big");
  const bit = names.local("smul.ov");
  const product = names.local("smul.p");
  return [
    ...operands.lines,
    `${magnitude} = mul i64 ${operands.aMagnitude}, ${operands.bMagnitude}`,
    ...overflow.lines,
    `${negative} = xor i1 ${operands.aNegative}, ${operands.bNegative}`,
    `${limit} = select i1 ${negative}, i64 ${SIGN_BIT}, i64 ${SIGNED_MAX}`,
    `${tooBig} = icmp ugt i64 ${magnitude}, ${limit}`,
    `${bit} = or i1 ${overflow.bit}, ${tooBig}`,
    `${product} = mul i64 ${a}, ${b}`,
    ...pack(product, bit, result, names),
  ];
}

function pack(value: string, bit: string, result: string, names: FreshNames): string[] {
  const partial = names.local("mul.r");
  return [
    `${partial} = insertvalue { i64, i1 } poison, i64 ${value}, 0`,
    `${result} = insertvalue { i64, i1 } ${partial}, i1 ${bit}, 1`,
  ];
}
