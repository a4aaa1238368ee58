import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildRecord, sha256Hex, toolchainRecord, writeBuildRecord } from "./build-record";
import { linkProgram } from "./link/index";
import { lowerIr } from "./lower-ir";
import { cargoBuild } from "./pipeline/cargo-build";
import { compileObject, LLC_FLAGS } from "./pipeline/compile-object";
import { linkBitcode } from "./pipeline/link-bitcode";
import { readArchive } from "./pipeline/read-archive";
import { sourceTreeHash } from "./source-tree";
import { detectToolchain, type Toolchain } from "./toolchain";

/** The repository root (this file is programs/toolchain/src/build.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const DEFAULT_CRATE = join(REPO_ROOT, "programs", "agent-policy");
export const DEFAULT_TARGET_DIR = join(REPO_ROOT, "target", "sbf");
export const DEPLOY_DIR = join(REPO_ROOT, "target", "deploy");

export interface BuildOptions {
  crateDir?: string;
  /** Output .so; default target/deploy/<lib name>.so. */
  out?: string;
  /** Build record; default next to the .so as <name>.build.json. */
  record?: string;
  /** Cargo target directory (kept between builds for speed). */
  targetDir?: string;
  /** Checkout root: remapped out of the binary, and the base of the record's crate path. */
  repoRoot?: string;
  toolchain?: Toolchain;
  /** Progress lines (one per step). */
  log?: (line: string) => void;
  /** Keep the intermediate files (linked.ll, lowered.ll, program.o) of a failed build; default true. */
  keepFailedWorkDir?: boolean;
}

export interface BuildResult {
  so: string;
  recordPath: string;
  record: BuildRecord;
  /** Milliseconds per step, for the log; never part of the record. */
  timings: Record<string, number>;
}

/**
 * The offline SBF build: cargo (bitcode staticlib) -> llvm-link -> llvm-dis -> IR lowering ->
 * llc -> our linker -> `.so` + build record. Every step either succeeds or throws naming itself
 * (with the tool's stderr); the .so and the record are written last, via rename, so a failed
 * build never leaves a half-written or stale-but-fresh-looking binary behind.
 */
export function buildProgram(options: BuildOptions = {}): BuildResult {
  const log = options.log ?? (() => {});
  const crateDir = resolve(options.crateDir ?? DEFAULT_CRATE);
  const repoRoot = resolve(options.repoRoot ?? REPO_ROOT);
  const timings: Record<string, number> = {};
  const timed = <T>(step: string, run: () => T): T => {
    const started = performance.now();
    const value = run();
    timings[step] = Math.round(performance.now() - started);
    return value;
  };

  const toolchain = options.toolchain ?? timed("toolchain", () => detectToolchain());
  log(`toolchain: rustc ${toolchain.rustcRelease}, LLVM ${toolchain.llvmVersion} (${toolchain.llc})`);

  const cargo = timed("cargo", () =>
    cargoBuild({
      toolchain,
      crateDir,
      repoRoot,
      targetDir: resolve(options.targetDir ?? DEFAULT_TARGET_DIR),
    }),
  );
  log(`cargo: ${relative(repoRoot, cargo.archive)}`);

  const workDir = mkdtempSync(join(tmpdir(), "cpay-sbf-"));
  try {
    const members = readArchive(new Uint8Array(readFileSync(cargo.archive)));
    const linked = timed("llvm-link", () => linkBitcode(toolchain, members, cargo.libName, workDir));
    log(`llvm-link: ${linked.memberCount} bitcode member(s)`);

    const lowered = timed("lower-ir", () => lowerIr(linked.ir));
    const loweredPath = join(workDir, "lowered.ll");
    writeFileSync(loweredPath, lowered.ir);
    log(`lower-ir: ${JSON.stringify(lowered.report)}`);

    const object = timed("llc", () => compileObject(toolchain, loweredPath, join(workDir, "program.o")));
    const linkedSo = timed("link", () => linkProgram(object));
    log(
      `link: .text ${linkedSo.textBytes} B, .rodata ${linkedSo.rodataBytes} B, syscalls ${linkedSo.syscalls.join(", ")}`,
    );

    const out = resolve(options.out ?? join(DEPLOY_DIR, `${cargo.libName}.so`));
    const recordPath = resolve(options.record ?? `${out.replace(/\.so$/, "")}.build.json`);
    const crate = relative(repoRoot, crateDir).split("\\").join("/");
    const record: BuildRecord = {
      program: cargo.libName,
      sha256: sha256Hex(linkedSo.so),
      size: linkedSo.so.length,
      crate,
      sourceTree: sourceTreeHash(crateDir),
      toolchain: toolchainRecord(toolchain),
      llcFlags: [...LLC_FLAGS],
      lowering: lowered.report,
      link: {
        textBytes: linkedSo.textBytes,
        rodataBytes: linkedSo.rodataBytes,
        syscalls: linkedSo.syscalls,
        gatedSyscalls: linkedSo.gatedSyscalls,
        callxRewritten: linkedSo.callxRewritten,
      },
    };
    writeAtomically(out, (path) => writeFileSync(path, linkedSo.so));
    writeAtomically(recordPath, (path) => writeBuildRecord(path, record));
    log(`wrote ${relative(repoRoot, out)} (${record.size} bytes, sha256 ${record.sha256})`);
    rmSync(workDir, { recursive: true, force: true });
    return { so: out, recordPath, record, timings };
  } catch (error) {
    if (options.keepFailedWorkDir === false) rmSync(workDir, { recursive: true, force: true });
    else if (error instanceof Error) error.message += `\n(intermediate files kept in ${workDir})`;
    throw error;
  }
}

function writeAtomically(path: string, write: (tmp: string) => void): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  write(tmp);
  renameSync(tmp, path);
}
