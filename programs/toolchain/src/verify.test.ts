import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildProgram, REPO_ROOT } from "./build";
import type { BuildRecord } from "./build-record";
import { HELLO_CRATE } from "./testing/hello-fixture";
import { tempDir } from "./testing/llvm";
import { verifyBuild } from "./verify";

/**
 * `verify` against a committed build of the fixture crate, with the record edited to simulate
 * each situation: nothing changed, a toolchain update, a source change, and bytes that differ
 * although nothing else did.
 */
describe("verifyBuild", () => {
  let committed: { so: string; record: string; data: BuildRecord };

  const withRecord = (edit: (record: BuildRecord) => void) => {
    const dir = tempDir();
    const so = join(dir, "hello_sbf.so");
    const record = join(dir, "hello_sbf.build.json");
    writeFileSync(so, readFileSync(committed.so));
    const data = structuredClone(committed.data);
    edit(data);
    writeFileSync(record, JSON.stringify(data));
    return { so, record, freshOut: join(dir, "fresh", "hello_sbf.so") };
  };

  beforeAll(() => {
    const built = buildProgram({ crateDir: HELLO_CRATE, out: join(tempDir(), "hello_sbf.so") });
    committed = { so: built.so, record: built.recordPath, data: built.record };
  });

  it("given nothing changed, then the build is reproducible", () => {
    const paths = withRecord(() => {});
    expect(verifyBuild({ crateDir: HELLO_CRATE, ...paths })).toEqual({
      status: "reproducible",
      fresh: paths.freshOut,
    });
  });

  it("given the record was made by another LLVM, then it reports the drift and points at the fresh build", () => {
    const paths = withRecord((r) => {
      r.toolchain.llvm = "21.1.0";
      r.toolchain.llc = "Debian LLVM version 21.1.0";
      r.sha256 = "0".repeat(64);
    });
    rmSync(paths.so);

    const outcome = verifyBuild({ crateDir: HELLO_CRATE, ...paths });

    expect(outcome).toMatchObject({
      status: "toolchain-drift",
      fresh: paths.freshOut,
      committed: { llvm: "21.1.0" },
      current: { llvm: committed.data.toolchain.llvm },
      freshSha256: committed.data.sha256,
    });
    expect(readFileSync(paths.freshOut).equals(readFileSync(committed.so))).toBe(true);
  });

  it("given the sources changed since the committed build, then it is stale", () => {
    const paths = withRecord((r) => {
      r.sourceTree = "f".repeat(40);
    });
    expect(verifyBuild({ crateDir: HELLO_CRATE, ...paths })).toMatchObject({ status: "stale" });
  });

  it("given the same toolchain and sources but other bytes, then it is non-reproducible (exit 1 from the CLI)", () => {
    const paths = withRecord((r) => {
      r.sha256 = "0".repeat(64);
    });
    rmSync(paths.so);

    expect(verifyBuild({ crateDir: HELLO_CRATE, ...paths })).toMatchObject({
      status: "non-reproducible",
      message: expect.stringMatching(/^non-reproducible build: same toolchain/),
    });

    const cli = runVerifyCli(paths);
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain("non-reproducible build");
  });

  it("given a committed .so that does not match its record, then it is non-reproducible", () => {
    const paths = withRecord(() => {});
    writeFileSync(paths.so, Buffer.concat([readFileSync(committed.so), Buffer.from([0])]));
    expect(verifyBuild({ crateDir: HELLO_CRATE, ...paths })).toMatchObject({
      status: "non-reproducible",
      message: expect.stringContaining("does not match its build record"),
    });
  });

  it("given toolchain drift, then the CLI exits 0 and prints the fresh .so path last on stdout", () => {
    const paths = withRecord((r) => {
      r.toolchain.rustc = "1.95.0";
    });
    const cli = runVerifyCli(paths);
    expect(cli.status).toBe(0);
    expect(cli.stderr).toMatch(/toolchain drift[\s\S]*rustc 1\.95\.0 .* -> /);
    expect(cli.stdout.trim().split("\n").at(-1)).toBe(paths.freshOut);
  });
});

/** `cpay-sbf verify` on the hello crate with these committed and fresh paths. */
function runVerifyCli(paths: { so: string; record: string; freshOut: string }) {
  return runCli([
    "verify",
    "--crate",
    HELLO_CRATE,
    "--so",
    paths.so,
    "--record",
    paths.record,
    "--fresh-out",
    paths.freshOut,
  ]);
}

function runCli(args: string[]) {
  const tsx = join(REPO_ROOT, "node_modules", ".bin", "tsx");
  return spawnSync(tsx, [join(REPO_ROOT, "programs", "toolchain", "src", "cli.ts"), ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
}
