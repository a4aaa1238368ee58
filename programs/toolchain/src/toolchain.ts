import { accessSync, constants, existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { runStep } from "./run-step";

/**
 * The Debian compiler the build must use. The rustup proxies come first on PATH on these machines
 * and have no bpf std, so the pipeline never resolves `rustc`/`cargo` through PATH.
 */
export const DEBIAN_RUSTC = "/usr/bin/rustc";
export const DEBIAN_CARGO = "/usr/bin/cargo";

/** The toolchain one build ran with: executables to call and the versions for the build record. */
export interface Toolchain {
  rustc: string;
  cargo: string;
  /** `release:` of `rustc -vV`, e.g. "1.96.0". */
  rustcRelease: string;
  /** `commit-hash:` of `rustc -vV` (identifies the exact compiler build). */
  rustcCommit: string;
  /** `LLVM version:` of `rustc -vV`, e.g. "22.1.8". */
  llvmVersion: string;
  llvmMajor: number;
  /** First line of `llc-<major> --version`, e.g. "Debian LLVM version 22.1.8". */
  llcVersion: string;
  /** Resolved paths of the LLVM tools matching rustc's LLVM. */
  llc: string;
  llvmLink: string;
  llvmDis: string;
  /** Directory with the prebuilt core/alloc for bpfel-unknown-none. */
  bpfStdDir: string;
}

export interface RustcVersion {
  release: string;
  commit: string;
  llvmVersion: string;
  llvmMajor: number;
}

/**
 * Parses `rustc -vV`. The LLVM tools must come from the same LLVM major as rustc (bitcode is
 * only readable by the LLVM that wrote it or newer), and Debian security updates move that
 * version, so the tool names are derived from here rather than hard-coded.
 */
export function parseRustcVersion(text: string): RustcVersion {
  const field = (name: string) => text.match(new RegExp(`^${name}:\\s*(\\S+)\\s*$`, "m"))?.[1];
  const release = field("release");
  const llvmVersion = field("LLVM version");
  if (!release || !llvmVersion) {
    throw new Error(`cannot read release/LLVM version from rustc -vV output:\n${text}`);
  }
  const llvmMajor = Number.parseInt(llvmVersion, 10);
  if (!Number.isInteger(llvmMajor)) {
    throw new Error(`unexpected LLVM version "${llvmVersion}" in rustc -vV output`);
  }
  return { release, commit: field("commit-hash") ?? "unknown", llvmVersion, llvmMajor };
}

export interface DetectOptions {
  rustc?: string;
  cargo?: string;
  /** Search path for the LLVM tools; defaults to $PATH. */
  path?: string;
}

/**
 * Finds and checks the whole toolchain, failing with the missing piece and the Debian package
 * that provides it (scripts/install-system-deps.sh installs all of them).
 */
export function detectToolchain(options: DetectOptions = {}): Toolchain {
  const rustc = options.rustc ?? DEBIAN_RUSTC;
  const cargo = options.cargo ?? DEBIAN_CARGO;
  requireExecutable(rustc, "rustc", "rustc-web");
  requireExecutable(cargo, "cargo", "cargo-web");

  const version = parseRustcVersion(
    runStep("toolchain detection", rustc, ["-vV"], { missingHint: "install rustc-web" }).stdout,
  );
  const sysroot = runStep("toolchain detection", rustc, ["--print", "sysroot"]).stdout.trim();
  const bpfStdDir = join(sysroot, "lib", "rustlib", "bpfel-unknown-none", "lib");
  if (!existsSync(bpfStdDir) || !readdirSync(bpfStdDir).some((f) => /^libcore-.*\.rlib$/.test(f))) {
    throw new Error(
      `no prebuilt core for bpfel-unknown-none in ${bpfStdDir}: install the Debian package ` +
        "libstd-rust-web-dev-bpf (scripts/install-system-deps.sh)",
    );
  }

  const searchPath = options.path ?? process.env.PATH ?? "";
  const major = version.llvmMajor;
  const llvmPackage = `llvm-${major} (pulled in by rust-web-llvm)`;
  const find = (tool: string) => findLlvmTool(tool, major, searchPath, llvmPackage);
  const llc = find("llc");
  const llvmLink = find("llvm-link");
  const llvmDis = find("llvm-dis");
  const llcVersion =
    runStep("toolchain detection", llc, ["--version"])
      .stdout.split("\n")
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? "unknown";

  return {
    rustc,
    cargo,
    rustcRelease: version.release,
    rustcCommit: version.commit,
    llvmVersion: version.llvmVersion,
    llvmMajor: major,
    llcVersion,
    llc,
    llvmLink,
    llvmDis,
    bpfStdDir,
  };
}

/**
 * `<tool>-<major>` on the search path (Debian's versioned names), else the unversioned binary in
 * /usr/lib/llvm-<major>/bin, which is where the same package installs it.
 */
export function findLlvmTool(tool: string, major: number, searchPath: string, debianPackage: string): string {
  const versioned = `${tool}-${major}`;
  for (const dir of searchPath.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, versioned);
    if (isExecutable(candidate)) return candidate;
  }
  const fallback = `/usr/lib/llvm-${major}/bin/${tool}`;
  if (isExecutable(fallback)) return fallback;
  throw new Error(
    `${versioned} not found (needed to match rustc's LLVM ${major}): install the Debian package ` +
      `${debianPackage}; scripts/install-system-deps.sh does it`,
  );
}

function requireExecutable(path: string, what: string, debianPackage: string): void {
  if (!isExecutable(path)) {
    throw new Error(`${what} not found at ${path}: install the Debian package ${debianPackage}`);
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
