import type { Address } from "@solana/kit";
import { beforeAll, describe, expect, it } from "vitest";
import { linkProgram } from "../link/index";
import { lowerIr } from "../lower-ir";
import { createHarness, deployVerified, type Harness, send } from "../testing/litesvm-harness";
import { BPF_MODULE_HEADER, compileLl } from "../testing/llvm";

/**
 * The lowering passes rewrite arithmetic, so their results must equal LLVM's (= Rust's)
 * semantics, not merely compile. This program runs each rewritten operation on SBPF in LiteSVM
 * and the test compares every result with BigInt arithmetic, over edge values and a
 * deterministic pseudo-random sample.
 *
 * Instruction data: [op u8][a i64 LE][b i64 LE]; the program logs sol_log_64_(op, value, overflow).
 */
const OPS = [
  { name: "umul", ir: "%r = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %a, i64 %b)", pair: true },
  { name: "smul", ir: "%r = call { i64, i1 } @llvm.smul.with.overflow.i64(i64 %a, i64 %b)", pair: true },
  { name: "sdiv64", ir: "%r = sdiv i64 %a, %b" },
  { name: "srem64", ir: "%r = srem i64 %a, %b" },
  { name: "sdiv32", ir: "%n = sdiv i32 %a32, %b32\n  %r = sext i32 %n to i64" },
  { name: "srem32", ir: "%n = srem i32 %a32, %b32\n  %r = sext i32 %n to i64" },
  { name: "sdiv8", ir: "%n = sdiv i8 %a8, %b8\n  %r = sext i8 %n to i64" },
  { name: "srem8", ir: "%n = srem i8 %a8, %b8\n  %r = sext i8 %n to i64" },
] as const;

function programIr(): string {
  const cases = OPS.map((_, i) => `i8 ${i}, label %op${i}`).join(" ");
  const blocks = OPS.map((op, i) => {
    const value = op.name.endsWith("mul")
      ? `  %v${i} = extractvalue { i64, i1 } %r, 0\n  %f${i} = extractvalue { i64, i1 } %r, 1\n  %o${i} = zext i1 %f${i} to i64`
      : `  %v${i} = add i64 %r, 0\n  %o${i} = add i64 0, 0`;
    return `op${i}:\n  ${op.ir.replaceAll("%r", `%r${i}`).replaceAll("%n", `%n${i}`)}\n${value.replaceAll("%r", `%r${i}`)}\n  br label %done`;
  }).join("\n");
  const phis = (prefix: string) => OPS.map((_, i) => `[ %${prefix}${i}, %op${i} ]`).join(", ");
  return `${BPF_MODULE_HEADER}
define i64 @entrypoint(ptr %input) {
entry:
  %op.p = getelementptr i8, ptr %input, i64 16
  %op = load i8, ptr %op.p, align 1
  %a.p = getelementptr i8, ptr %input, i64 17
  %a = load i64, ptr %a.p, align 1
  %b.p = getelementptr i8, ptr %input, i64 25
  %b = load i64, ptr %b.p, align 1
  %a32 = trunc i64 %a to i32
  %b32 = trunc i64 %b to i32
  %a8 = trunc i64 %a to i8
  %b8 = trunc i64 %b to i8
  switch i8 %op, label %bad [ ${cases} ]
${blocks}
done:
  %value = phi i64 ${phis("v")}
  %overflow = phi i64 ${phis("o")}
  %opx = zext i8 %op to i64
  call void @sol_log_64_(i64 %opx, i64 %value, i64 %overflow, i64 0, i64 0)
  ret i64 0
bad:
  ret i64 1
}
declare void @sol_log_64_(i64, i64, i64, i64, i64)
declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.smul.with.overflow.i64(i64, i64)
`;
}

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;
const EDGES = [
  0n,
  1n,
  -1n,
  2n,
  -2n,
  7n,
  -7n,
  10n,
  -128n,
  127n,
  255n,
  2n ** 31n - 1n,
  -(2n ** 31n),
  2n ** 32n,
  -(2n ** 32n),
  3037000499n,
  3037000500n,
  -3037000500n,
  MAX,
  MIN,
  MIN + 1n,
  2n ** 62n,
];

/** Expected (value, overflow) per LLVM semantics, or undefined where the operation is UB. */
function expected(op: (typeof OPS)[number]["name"], a: bigint, b: bigint): [bigint, bigint] | undefined {
  const u = (x: bigint) => BigInt.asUintN(64, x);
  switch (op) {
    case "umul": {
      const product = u(a) * u(b);
      return [u(product), product >= 2n ** 64n ? 1n : 0n];
    }
    case "smul": {
      const product = a * b;
      return [u(product), product > MAX || product < MIN ? 1n : 0n];
    }
    default: {
      const bits = op.endsWith("64") ? 64 : op.endsWith("32") ? 32 : 8;
      const x = BigInt.asIntN(bits, a);
      const y = BigInt.asIntN(bits, b);
      if (y === 0n || (x === -(2n ** BigInt(bits - 1)) && y === -1n)) return undefined;
      return [u(op.startsWith("sdiv") ? x / y : x % y), 0n];
    }
  }
}

function samples(): [bigint, bigint][] {
  const pairs: [bigint, bigint][] = [];
  for (const a of EDGES) for (const b of EDGES) pairs.push([a, b]);
  let state = 0x2545f4914f6cdd1dn;
  const next = () => {
    state = BigInt.asUintN(64, state * 6364136223846793005n + 1442695040888963407n);
    return BigInt.asIntN(64, state >> BigInt(Number(state & 31n)));
  };
  for (let i = 0; i < 120; i++) pairs.push([next(), next()]);
  return pairs;
}

const hex = (v: bigint) => `0x${v.toString(16)}`;

describe("lowered arithmetic on SBPF (LiteSVM)", () => {
  let harness: Harness;
  let programId: Address;

  beforeAll(async () => {
    const lowered = lowerIr(programIr());
    expect(lowered.report).toMatchObject({ mulOverflowExpanded: 2, signedDivisionsRewritten: 6 });
    harness = await createHarness();
    programId = await deployVerified(harness, linkProgram(compileLl(lowered.ir)).so);
  });

  it.each(OPS.map((op, index) => [op.name, index] as const))(
    "given %s over edge and random operands, when run on SBPF, then every result equals LLVM's semantics",
    async (name, index) => {
      const cases = samples()
        .map(([a, b]) => ({ a, b, want: expected(name, a, b) }))
        .filter((c): c is { a: bigint; b: bigint; want: [bigint, bigint] } => c.want !== undefined);
      for (let start = 0; start < cases.length; start += 16) {
        const batch = cases.slice(start, start + 16);
        const result = await send(
          harness,
          batch.map(({ a, b }) => {
            const data = new Uint8Array(17);
            const view = new DataView(data.buffer);
            data[0] = index;
            view.setBigInt64(1, a, true);
            view.setBigInt64(9, b, true);
            return { programAddress: programId, accounts: [], data };
          }),
        );
        expect(result.error).toBeUndefined();
        const got = result.logs.filter((line) => line.startsWith("Program log: 0x"));
        const want = batch.map(
          ({ want: [v, o] }) => `Program log: ${hex(BigInt(index))}, ${hex(v)}, ${hex(o)}, 0x0, 0x0`,
        );
        expect(got).toEqual(want);
      }
    },
  );
});
