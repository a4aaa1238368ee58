import { ensureDeclaration, type IrModule, parseCall } from "./ir-module";

/**
 * Turns `llvm.trap` (and its `ubsantrap`/`debugtrap` siblings) into a call of the `abort`
 * syscall.
 *
 * Rust emits `llvm.trap` for `core::intrinsics::abort`, failed `unreachable_unchecked` checks in
 * debug code and some bounds paths. Upstream BPF lowers it to a call to the kernel kfunc
 * `__bpf_trap`, which no Solana loader provides; `abort` is the syscall the loader registers for
 * exactly this (it halts the program with "SBF program panicked").
 */
export function trapToAbort(module: IrModule): { rewritten: number } {
  let rewritten = 0;
  for (const chunk of module.chunks) {
    if (chunk.kind !== "function") continue;
    chunk.body = chunk.body.map((line) => {
      if (!line.includes("@llvm.")) return line;
      const call = parseCall(line, /^llvm\.(?:trap|ubsantrap|debugtrap)$/);
      if (!call) return line;
      rewritten++;
      // The call's own attributes (#N: noreturn, cold) and metadata stay valid for `abort`.
      return `${call.indent}call void @abort()${call.suffix}`;
    });
  }
  if (rewritten > 0) ensureDeclaration(module, "abort", "declare void @abort() noreturn nounwind");
  return { rewritten };
}
