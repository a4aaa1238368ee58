import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { runStep } from "../run-step";
import type { Toolchain } from "../toolchain";

export const SBF_TARGET = "bpfel-unknown-none";

export interface CargoBuildInput {
  toolchain: Toolchain;
  /** Directory holding the crate's Cargo.toml. */
  crateDir: string;
  /** Repository root: its absolute path is remapped out of the binary. */
  repoRoot: string;
  targetDir: string;
}

export interface CargoBuildOutput {
  /** The staticlib archive (LLVM bitcode members, since the target is "obj-is-bitcode"). */
  archive: string;
  /** The library's crate name (`agent_policy`): archive members of this crate start with it. */
  libName: string;
  warnings: string;
}

/**
 * `cargo rustc --lib --crate-type staticlib --release --offline --target bpfel-unknown-none`.
 *
 * - `cargo rustc --crate-type staticlib` rather than `cargo build`: when Cargo.toml also lists
 *   `rlib` (useful for host tests), rustc skips fat LTO for the staticlib and the archive holds
 *   the crate, all of `core` and `compiler_builtins` as separate un-optimised bitcode modules
 *   (panic paths then drag in `core::fmt`, which needs more than 5 register arguments). Forcing
 *   the one crate type keeps `lto = true` effective.
 * - RUSTC is Debian's rustc (the only one with a bpf std); `--offline` because crates.io is
 *   unreachable and the crate must have no dependencies anyway.
 * - `--remap-path-prefix` rewrites the checkout's absolute path (it reaches the binary through
 *   panic locations) so the bytes do not depend on where the repository is cloned.
 * - JSON messages give the archive's path without guessing cargo's naming rules.
 * - Flags and wrappers from the caller's environment (RUSTFLAGS, RUSTC_WRAPPER...) are dropped:
 *   the bytes must depend on the sources and the toolchain only. Flags a crate needs belong in
 *   its own .cargo/config.toml, which is part of its source tree and so of the build record.
 */
export function cargoBuild(input: CargoBuildInput): CargoBuildOutput {
  const manifest = join(input.crateDir, "Cargo.toml");
  if (!existsSync(manifest)) throw new Error(`no Cargo.toml in ${input.crateDir}`);
  const remap = `--remap-path-prefix=${input.repoRoot}=.`;
  const { stdout, stderr } = runStep(
    "cargo build (rustc -> LLVM bitcode)",
    input.toolchain.cargo,
    [
      "rustc",
      "--lib",
      "--crate-type",
      "staticlib",
      "--release",
      "--offline",
      "--target",
      SBF_TARGET,
      "--manifest-path",
      manifest,
      "--target-dir",
      input.targetDir,
      "--message-format=json-render-diagnostics",
      "--",
      remap,
    ],
    {
      cwd: input.crateDir,
      env: { ...cleanEnvironment(process.env), RUSTC: input.toolchain.rustc, CARGO_TERM_COLOR: "never" },
      missingHint: "install the Debian package cargo-web",
    },
  );
  const artifacts = stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as CargoMessage)
    .filter((m) => m.reason === "compiler-artifact" && m.target?.kind?.includes("staticlib"));
  const artifact = artifacts.at(-1);
  const archive = artifact?.filenames?.find((f) => f.endsWith(".a"));
  if (!artifact?.target || !archive) {
    throw new Error(
      `cargo produced no staticlib for ${relative(input.repoRoot, input.crateDir)}; ` +
        `its [lib] must build as a staticlib for ${SBF_TARGET}\n${stderr}`,
    );
  }
  return { archive, libName: artifact.target.name.replaceAll("-", "_"), warnings: stderr };
}

const AMBIENT_FLAGS = [
  "RUSTFLAGS",
  "CARGO_ENCODED_RUSTFLAGS",
  "CARGO_BUILD_RUSTFLAGS",
  "RUSTC_WRAPPER",
  "RUSTC_WORKSPACE_WRAPPER",
  "CARGO_BUILD_RUSTC_WRAPPER",
  "CARGO_BUILD_TARGET_DIR",
  "CARGO_TARGET_DIR",
];

function cleanEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean = { ...env };
  for (const name of AMBIENT_FLAGS) delete clean[name];
  for (const name of Object.keys(clean)) if (/^CARGO_TARGET_.*_RUSTFLAGS$/.test(name)) delete clean[name];
  return clean;
}

interface CargoMessage {
  reason?: string;
  target?: { name: string; kind?: string[] };
  filenames?: string[];
}
