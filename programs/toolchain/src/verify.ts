import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { buildProgram, DEFAULT_CRATE, DEFAULT_TARGET_DIR, DEPLOY_DIR, REPO_ROOT } from "./build";
import {
  type BuildRecord,
  readBuildRecord,
  sameToolchain,
  sha256Hex,
  type ToolchainRecord,
} from "./build-record";

export interface VerifyOptions {
  crateDir?: string;
  /** The committed .so and its record (default target/deploy/agent_policy.{so,build.json}). */
  so?: string;
  record?: string;
  /** Where the fresh build goes (default target/sbf/fresh/<name>.so). */
  freshOut?: string;
  log?: (line: string) => void;
}

export type VerifyOutcome =
  /** Same toolchain, same sources, same bytes. */
  | { status: "reproducible"; fresh: string }
  /** The toolchain moved (e.g. a Debian security update): bytes may differ; use the fresh build. */
  | {
      status: "toolchain-drift";
      fresh: string;
      committed: ToolchainRecord;
      current: ToolchainRecord;
      committedSha256: string;
      freshSha256: string;
    }
  /** Sources changed since the committed build: rebuild and commit. */
  | { status: "stale"; fresh: string; message: string }
  /** Same toolchain and sources, different bytes, or a committed .so that is not what its record says. */
  | { status: "non-reproducible"; fresh: string; message: string };

/**
 * Rebuilds the program into a separate path and compares it with the committed build record.
 * Only `reproducible` and `toolchain-drift` are success: in the drift case the committed bytes
 * cannot be re-derived here, so callers (tests) should use the fresh build, whose path is in
 * the outcome.
 */
export function verifyBuild(options: VerifyOptions = {}): VerifyOutcome {
  const committedSo = resolve(options.so ?? join(DEPLOY_DIR, "agent_policy.so"));
  const recordPath = resolve(options.record ?? `${committedSo.replace(/\.so$/, "")}.build.json`);
  const committed = readBuildRecord(recordPath);
  if (!committed)
    throw new Error(`no build record at ${relative(REPO_ROOT, recordPath)}: run npm run build:program`);

  const freshOut = resolve(options.freshOut ?? join(DEFAULT_TARGET_DIR, "fresh", `${committed.program}.so`));
  const fresh = buildProgram({
    crateDir: options.crateDir ?? (committed.crate ? join(REPO_ROOT, committed.crate) : DEFAULT_CRATE),
    out: freshOut,
    log: options.log,
  });

  const committedBytes = existsSync(committedSo) ? new Uint8Array(readFileSync(committedSo)) : undefined;
  if (committedBytes && sha256Hex(committedBytes) !== committed.sha256) {
    return {
      status: "non-reproducible",
      fresh: fresh.so,
      message: `${relative(REPO_ROOT, committedSo)} does not match its build record (sha256 ${sha256Hex(committedBytes)} vs ${committed.sha256})`,
    };
  }
  if (!sameToolchain(committed.toolchain, fresh.record.toolchain)) {
    return {
      status: "toolchain-drift",
      fresh: fresh.so,
      committed: committed.toolchain,
      current: fresh.record.toolchain,
      committedSha256: committed.sha256,
      freshSha256: fresh.record.sha256,
    };
  }
  if (committed.sourceTree !== fresh.record.sourceTree) {
    return {
      status: "stale",
      fresh: fresh.so,
      message:
        `the sources of ${committed.crate} changed since the committed build ` +
        `(source tree ${committed.sourceTree.slice(0, 12)} -> ${fresh.record.sourceTree.slice(0, 12)}); ` +
        "run npm run build:program and commit target/deploy",
    };
  }
  if (committed.sha256 !== fresh.record.sha256) {
    return {
      status: "non-reproducible",
      fresh: fresh.so,
      message: describeNonReproducible(committed, fresh.record),
    };
  }
  return { status: "reproducible", fresh: fresh.so };
}

function describeNonReproducible(committed: BuildRecord, fresh: BuildRecord): string {
  return (
    "non-reproducible build: same toolchain " +
    `(rustc ${fresh.toolchain.rustc}, LLVM ${fresh.toolchain.llvm}) and same sources, but sha256 ` +
    `${committed.sha256} (committed, ${committed.size} B) != ${fresh.sha256} (fresh, ${fresh.size} B). ` +
    "Something in the pipeline depends on the environment (paths, time, ordering): diff the two .so files."
  );
}
