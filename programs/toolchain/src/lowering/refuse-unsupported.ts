import { demangle } from "./demangle";
import { functions, type IrModule } from "./ir-module";
import { type Reachability, referenceChain } from "./reachability";

/**
 * Constructs upstream LLVM's BPF backend cannot compile and this toolchain does not lower. llc
 * would fail on most of them with an unhelpful message, or (atomics) produce instructions the
 * SBPF v0 verifier rejects at deploy time; refusing them here names the Rust function instead.
 */
const RULES: readonly { pattern: RegExp; what: string }[] = [
  {
    pattern: /= (?:mul|udiv|sdiv|urem|srem)(?: (?:nuw|nsw|exact))* i128 /,
    what: "128-bit multiplication/division (u128/i128 `*`, `/`, `%`)",
  },
  {
    pattern: /@llvm\.[su]mul\.with\.overflow\.i128\(/,
    what: "128-bit checked multiplication (u128/i128 checked_mul/overflowing_mul)",
  },
  {
    pattern:
      /@(?:__multi3|__divti3|__udivti3|__modti3|__umodti3|__muloti4|__divmodti4|__udivmodti4|__rust_[iu]128_\w+)\(/,
    what: "a 128-bit arithmetic library call",
  },
  {
    pattern: /= (?:fadd|fsub|fmul|fdiv|frem|fneg|fcmp|fptoui|fptosi|uitofp|sitofp|fpext|fptrunc)\b/,
    what: "floating point arithmetic (f32/f64)",
  },
  {
    pattern: /@llvm\.[\w.]*\.(?:f16|bf16|f32|f64|f80|f128)\(/,
    what: "a floating point intrinsic",
  },
  {
    pattern:
      /@__(?:add|sub|mul|div|neg|pow|cmp|eq|ne|lt|le|gt|ge|unord|extend|trunc|fix|fixuns|float|floatun)[a-z]*(?:sf|df|tf|hf)[a-z]*\d?\(/,
    what: "a floating point library call",
  },
  {
    pattern: /= atomicrmw |= cmpxchg |\bload atomic |\bstore atomic |^\s*fence /,
    what: "atomic memory operations",
  },
];

export interface Refusal {
  function: string;
  what: string;
  line: string;
  chain: string[];
}

/** Finds every refused construct in reachable functions. */
export function findUnsupported(module: IrModule, reachability: Reachability): Refusal[] {
  const refusals: Refusal[] = [];
  for (const fn of functions(module)) {
    if (!reachability.reachable.has(fn.name)) continue;
    const seen = new Set<string>();
    for (const line of fn.body) {
      if (line.trimStart().startsWith(";") || line.trimStart().startsWith("#dbg_")) continue;
      for (const rule of RULES) {
        if (seen.has(rule.what) || !rule.pattern.test(line)) continue;
        seen.add(rule.what);
        refusals.push({
          function: fn.name,
          what: rule.what,
          line: line.trim().replace(/,\s*!.*$/, ""),
          chain: referenceChain(reachability, fn.name),
        });
      }
    }
  }
  return refusals;
}

/** Throws one error listing every refused construct, or returns when there is none. */
export function refuseUnsupported(module: IrModule, reachability: Reachability): void {
  const refusals = findUnsupported(module, reachability);
  if (refusals.length === 0) return;
  const shown = refusals.slice(0, 20).map((r) => {
    const path = r.chain.map(demangle).join(" -> ");
    return `  - ${demangle(r.function)} uses ${r.what}\n      ${truncate(r.line, 160)}\n      reached via ${path}`;
  });
  const more = refusals.length > shown.length ? `\n  ... and ${refusals.length - shown.length} more` : "";
  throw new Error(
    `refusing to build: the program uses constructs the SBF backend cannot compile:\n${shown.join("\n")}${more}\n` +
      "Rewrite them with u64 arithmetic (split u128 math into 64-bit halves, use fixed-point instead of floats, " +
      "plain loads/stores instead of atomics).",
  );
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}
