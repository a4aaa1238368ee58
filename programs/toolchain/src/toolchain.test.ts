import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { detectToolchain, findLlvmTool, parseRustcVersion } from "./toolchain";

const RUSTC_VV = `rustc 1.96.0 (ac68faa20 2026-05-25) (built from a source tarball)
binary: rustc
commit-hash: ac68faa20c58cbccd01ee7208bf3b6e93a7d7f96
commit-date: 2026-05-25
host: x86_64-unknown-linux-gnu
release: 1.96.0
LLVM version: 22.1.8
`;

describe("toolchain detection", () => {
  it("given rustc -vV output, then release, commit and LLVM version are read", () => {
    expect(parseRustcVersion(RUSTC_VV)).toEqual({
      release: "1.96.0",
      commit: "ac68faa20c58cbccd01ee7208bf3b6e93a7d7f96",
      llvmVersion: "22.1.8",
      llvmMajor: 22,
    });
    expect(parseRustcVersion(RUSTC_VV.replace("22.1.8", "23.0.1")).llvmMajor).toBe(23);
    expect(() => parseRustcVersion("rustc 1.0")).toThrow(/cannot read/);
  });

  it("given this machine, then the LLVM tools match rustc's LLVM major and versions are recorded", () => {
    const toolchain = detectToolchain();
    const major = toolchain.llvmMajor;
    expect(toolchain.rustc).toBe("/usr/bin/rustc");
    expect([basename(toolchain.llc), basename(toolchain.llvmLink), basename(toolchain.llvmDis)]).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^llc(-${major})?$`))]),
    );
    expect(toolchain.llcVersion).toContain(toolchain.llvmVersion);
    expect(toolchain.bpfStdDir).toMatch(/bpfel-unknown-none\/lib$/);
  });

  it("given a missing tool, then the error names it and the Debian package to install", () => {
    expect(() => findLlvmTool("llc", 999, "/nonexistent", "llvm-999 (pulled in by rust-web-llvm)")).toThrow(
      /llc-999 not found .*install the Debian package llvm-999 \(pulled in by rust-web-llvm\)/,
    );
  });

  it("given a missing rustc, then the error names the Debian package", () => {
    expect(() => detectToolchain({ rustc: "/nonexistent/rustc" })).toThrow(
      /rustc not found at \/nonexistent\/rustc: install the Debian package rustc-web/,
    );
  });
});
