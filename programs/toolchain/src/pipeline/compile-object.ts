import { readFileSync } from "node:fs";
import { BuildStepError, runStep } from "../run-step";
import type { Toolchain } from "../toolchain";

/**
 * llc flags for SBPF v0, each load-bearing:
 * - `-mcpu=v2`: v3 adds ALU32/JMP32 encodings the SBPF v0 verifier rejects;
 * - `+allows-misaligned-mem-access`: SBPF allows it; ~45% less code and fewer CU than byte-wise
 *   access to packed account data;
 * - `--bpf-stack-size=4096`: an SBPF frame is 4 KiB (the kernel's 512 B limit does not apply);
 * - `--bpf-disable-trap-unreachable`: `unreachable` must not become a call to the kernel's
 *   `__bpf_trap`, which no Solana loader provides.
 */
export const LLC_FLAGS = [
  "-march=bpfel",
  "-mcpu=v2",
  "-mattr=+allows-misaligned-mem-access",
  "-O3",
  "-filetype=obj",
  "--bpf-stack-size=4096",
  "--bpf-disable-trap-unreachable",
] as const;

/** Known llc failures and what to do about them in the Rust source. */
const HINTS: readonly { pattern: RegExp; hint: string }[] = [
  {
    pattern: /too many arguments|stack arguments are not supported/,
    hint:
      "BPF passes at most 5 arguments in registers (a slice counts as 2) and has no stack arguments: " +
      "make the function #[inline(always)] or pass a struct by reference.",
  },
  {
    pattern: /only small returns supported|aggregate returns/,
    hint: "a function returns a value larger than 8 bytes by value; return it through an out-pointer.",
  },
  {
    pattern: /A call to built-in function '(\w+)'/,
    hint: "a libcall the IR lowering does not rewrite (see programs/toolchain/src/lowering); please report it.",
  },
  {
    pattern: /Unsupported dynamic stack allocation|dynamic stack/,
    hint: "variable-sized stack allocation (alloca with a run-time size) is not supported on BPF.",
  },
];

/** Compiles the lowered IR file to a relocatable BPF object with upstream llc. */
export function compileObject(toolchain: Toolchain, irPath: string, objectPath: string): Uint8Array {
  try {
    runStep("llc (IR -> BPF object)", toolchain.llc, [...LLC_FLAGS, irPath, "-o", objectPath], {
      missingHint: `install the Debian package llvm-${toolchain.llvmMajor}`,
    });
  } catch (error) {
    if (!(error instanceof BuildStepError)) throw error;
    const hints = HINTS.filter((h) => h.pattern.test(error.stderr)).map((h) => `hint: ${h.hint}`);
    if (hints.length === 0) throw error;
    throw new BuildStepError(
      error.step,
      error.command,
      error.detail,
      `${error.stderr.trimEnd()}\n${hints.join("\n")}`,
    );
  }
  return new Uint8Array(readFileSync(objectPath));
}
