import { FreshNames, parseIrModule, printIrModule } from "./lowering/ir-module";
import { INLINE_MEM_OP_MAX_BYTES, lowerMemoryIntrinsics } from "./lowering/memory-intrinsics";
import { lowerMulWithOverflow } from "./lowering/mul-with-overflow";
import { computeReachability } from "./lowering/reachability";
import { refuseUnsupported } from "./lowering/refuse-unsupported";
import { lowerSignedDivision } from "./lowering/signed-division";
import { stripSret } from "./lowering/strip-sret";
import { stripUnreachable } from "./lowering/strip-unreachable";
import { trapToAbort } from "./lowering/trap-to-abort";

export interface LowerIrOptions {
  /** Symbols the loader can enter through; everything else must be reachable from them. */
  roots?: readonly string[];
  /** Constant-length mem ops up to this size stay inline (see INLINE_MEM_OP_MAX_BYTES). */
  inlineMemOpMaxBytes?: number;
}

/** What each pass did, for the build log. */
export interface LoweringReport {
  removedUnreachable: number;
  sretStripped: number;
  trapsToAbort: number;
  memOpsToSyscalls: number;
  memOpsInline: number;
  mulOverflowExpanded: number;
  signedDivisionsRewritten: number;
}

/**
 * Rewrites the linked, disassembled program IR so that upstream LLVM's BPF backend accepts what
 * rustc produced for `bpfel-unknown-none` (the passes in notes/sbf-toolchain.md, each in
 * `lowering/`). Order matters only at the start: dead code is dropped first so that the refusal
 * pass judges — and llc compiles — only what `entrypoint` can reach; then the refusal fails the
 * build loudly, naming the function, for what no pass can fix (i128 mul/div, floats, atomics).
 */
export function lowerIr(text: string, options: LowerIrOptions = {}): { ir: string; report: LoweringReport } {
  const module = parseIrModule(text);
  const reachability = computeReachability(module, options.roots ?? ["entrypoint"]);
  const { removed } = stripUnreachable(module, reachability);
  refuseUnsupported(module, reachability);

  const names = new FreshNames();
  const sret = stripSret(module);
  const traps = trapToAbort(module);
  const memOps = lowerMemoryIntrinsics(module, names, options.inlineMemOpMaxBytes ?? INLINE_MEM_OP_MAX_BYTES);
  const mul = lowerMulWithOverflow(module, names);
  const div = lowerSignedDivision(module, names);
  return {
    ir: printIrModule(module),
    report: {
      removedUnreachable: removed,
      sretStripped: sret.rewritten,
      trapsToAbort: traps.rewritten,
      memOpsToSyscalls: memOps.rewritten,
      memOpsInline: memOps.keptInline,
      mulOverflowExpanded: mul.rewritten,
      signedDivisionsRewritten: div.rewritten,
    },
  };
}
