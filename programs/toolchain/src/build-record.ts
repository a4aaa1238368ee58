import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import type { LoweringReport } from "./lower-ir";
import type { Toolchain } from "./toolchain";

/**
 * What a committed `.so` was built from and with — committed next to it so `verify` can tell a
 * non-reproducible build (same inputs, different bytes) from toolchain drift (a Debian security
 * update moved rustc/LLVM) from stale output (sources changed, nobody rebuilt).
 * No timestamps or absolute paths: the record is as deterministic as the binary.
 */
export interface BuildRecord {
  program: string;
  sha256: string;
  size: number;
  /** Crate directory, relative to the repository root. */
  crate: string;
  /**
   * Git tree hash of the crate's sources as built (see source-tree.ts): equals
   * `git rev-parse <commit>:<crate>` for the commit holding exactly these sources.
   */
  sourceTree: string;
  toolchain: ToolchainRecord;
  llcFlags: string[];
  lowering: LoweringReport;
  link: {
    textBytes: number;
    rodataBytes: number;
    syscalls: string[];
    gatedSyscalls: string[];
    callxRewritten: number;
  };
}

export interface ToolchainRecord {
  rustc: string;
  rustcCommit: string;
  llvm: string;
  llc: string;
  tools: { llc: string; llvmLink: string; llvmDis: string };
}

export function toolchainRecord(toolchain: Toolchain): ToolchainRecord {
  return {
    rustc: toolchain.rustcRelease,
    rustcCommit: toolchain.rustcCommit,
    llvm: toolchain.llvmVersion,
    llc: toolchain.llcVersion,
    tools: {
      llc: basename(toolchain.llc),
      llvmLink: basename(toolchain.llvmLink),
      llvmDis: basename(toolchain.llvmDis),
    },
  };
}

/** Same compiler, same LLVM: then identical sources must give identical bytes. */
export function sameToolchain(a: ToolchainRecord, b: ToolchainRecord): boolean {
  return a.rustc === b.rustc && a.rustcCommit === b.rustcCommit && a.llvm === b.llvm && a.llc === b.llc;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function writeBuildRecord(path: string, record: BuildRecord): void {
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
}

/** Reads a record, refusing files that lack the fields `verify` compares. */
export function readBuildRecord(path: string): BuildRecord | undefined {
  if (!existsSync(path)) return undefined;
  const record = JSON.parse(readFileSync(path, "utf8")) as Partial<BuildRecord>;
  const missing = (["program", "sha256", "sourceTree", "toolchain"] as const).filter((key) => !record[key]);
  if (missing.length > 0) {
    throw new Error(
      `${path} is not a build record of this toolchain (missing ${missing.join(", ")}): rebuild it`,
    );
  }
  return record as BuildRecord;
}
