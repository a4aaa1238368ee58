import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FreshNames, type IrModule, parseIrModule, printIrModule } from "../lowering/ir-module";
import { LLC_FLAGS } from "../pipeline/compile-object";
import { detectToolchain, type Toolchain } from "../toolchain";

/**
 * Test-only access to the machine's LLVM, found through the same detection the build uses, so
 * fixtures are compiled with exactly the llc the pipeline runs.
 */
let toolchain: Toolchain | undefined;
export function testToolchain(): Toolchain {
  toolchain ??= detectToolchain();
  return toolchain;
}

/**
 * `ir` parsed, run through one lowering pass (which rewrites the module in place) and printed
 * back: what the pass returned, and the IR it left.
 */
export function lowered<T extends object>(
  ir: string,
  pass: (module: IrModule, names: FreshNames) => T,
): T & { ir: string } {
  const module = parseIrModule(ir);
  const result = pass(module, new FreshNames());
  return { ...result, ir: printIrModule(module) };
}

/** The module header rustc emits for bpfel-unknown-none; prepend it to hand-written fixtures. */
export const BPF_MODULE_HEADER =
  'target datalayout = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128"\ntarget triple = "bpfel"\n';

/** One scratch root per test process, removed when the process exits. */
let scratchRoot: string | undefined;
let scratchCount = 0;
export function tempDir(): string {
  if (!scratchRoot) {
    const root = mkdtempSync(join(tmpdir(), "cpay-sbf-test-"));
    scratchRoot = root;
    process.once("exit", () => rmSync(root, { recursive: true, force: true }));
  }
  const dir = join(scratchRoot, String(scratchCount++));
  mkdirSync(dir);
  return dir;
}

export interface LlcResult {
  ok: boolean;
  stderr: string;
  object: Uint8Array | undefined;
}

/** Runs llc with the pipeline's flags on IR text; never throws on a compile error. */
export function runLlc(ir: string): LlcResult {
  const dir = tempDir();
  const input = join(dir, "input.ll");
  const output = join(dir, "output.o");
  writeFileSync(input, ir);
  const result = spawnSync(testToolchain().llc, [...LLC_FLAGS, input, "-o", output], { encoding: "utf8" });
  const ok = result.status === 0;
  return { ok, stderr: result.stderr ?? "", object: ok ? new Uint8Array(readFileSync(output)) : undefined };
}

/** Compiles IR text to a relocatable BPF object, failing the test with llc's message. */
export function compileLl(ir: string): Uint8Array {
  const result = runLlc(ir);
  if (!result.object) throw new Error(`llc rejected the fixture:\n${result.stderr}`);
  return result.object;
}

/** Assembles IR text to bitcode (llvm-link reads .ll too), as a staticlib member would be. */
export function bitcodeOf(ir: string): Uint8Array {
  const dir = tempDir();
  const input = join(dir, "input.ll");
  const output = join(dir, "output.bc");
  writeFileSync(input, ir);
  const result = spawnSync(testToolchain().llvmLink, [input, "-o", output], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`llvm-link rejected the fixture:\n${result.stderr}`);
  return new Uint8Array(readFileSync(output));
}
