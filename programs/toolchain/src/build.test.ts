import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BuildResult, buildProgram, REPO_ROOT } from "./build";
import { HELLO_CRATE, helloData } from "./testing/hello-fixture";
import { createHarness, deployVerified, invoke } from "./testing/litesvm-harness";
import { tempDir } from "./testing/llvm";

describe("buildProgram (fixture crate, full pipeline)", () => {
  let first: BuildResult;
  let second: BuildResult;

  beforeAll(() => {
    const out = tempDir();
    first = buildProgram({ crateDir: HELLO_CRATE, out: join(out, "a", "hello.so") });
    second = buildProgram({ crateDir: HELLO_CRATE, out: join(out, "b", "hello.so") });
  });

  it("given two consecutive builds, then the .so bytes and the records are identical", () => {
    expect(readFileSync(second.so).equals(readFileSync(first.so))).toBe(true);
    expect(second.record).toEqual(first.record);
    expect(readFileSync(first.recordPath, "utf8")).toBe(readFileSync(second.recordPath, "utf8"));
  });

  it("given a build, then the record names the program, toolchain, tool names and what each pass did", () => {
    const { record } = first;
    expect(record).toMatchObject({
      program: "hello_sbf",
      crate: "programs/toolchain/fixtures/hello-sbf",
      size: readFileSync(first.so).length,
      toolchain: { rustc: expect.stringMatching(/^\d+\.\d+\.\d+$/), llvm: expect.stringMatching(/^\d+\./) },
    });
    expect(record.toolchain.tools.llc).toMatch(/^llc(-\d+)?$/);
    expect(record.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(record.lowering).toMatchObject({
      sretStripped: expect.any(Number),
      mulOverflowExpanded: 4,
      signedDivisionsRewritten: 1,
    });
    expect(record.link.syscalls).toEqual(expect.arrayContaining(["sol_log_", "sol_log_64_", "sol_memcpy_"]));
    expect(record.link.callxRewritten).toBeGreaterThan(0);
    expect(readFileSync(first.so).includes(Buffer.from(REPO_ROOT))).toBe(false);
  });

  it("given the built fixture deployed through the upgradeable loader, when invoked, then dyn Trait, the match table, checked_mul, sdiv and memcpy all work", async () => {
    const harness = await createHarness();
    const programId = await deployVerified(harness, new Uint8Array(readFileSync(first.so)));

    const product = await invoke(harness, programId, helloData(1, 3, 2, 6n, 7n));
    expect(product.error, product.logs.join("\n")).toBeUndefined();
    expect(product.logs.filter((l) => l.startsWith("Program log:"))).toEqual([
      "Program log: hello from fixture",
      "Program log: rect",
      "Program log: 0x1, 0xa, 0x0, 0x0, 0x0",
      "Program log: three",
      "Program log: 0x2, 0x2a, 0x0, 0x0, 0x0",
      "Program log: 0x3, 0x13, 0x0, 0x0, 0x0",
    ]);

    const quotient = await invoke(harness, programId, helloData(2, 9, 3, -42n, 5n));
    expect(quotient.logs).toEqual(
      expect.arrayContaining([
        "Program log: triangle",
        "Program log: 0x1, 0xc, 0x0, 0x0, 0x0",
        "Program log: many",
      ]),
    );
    expect(quotient.logs).toContain(
      `Program log: 0x2, 0x${BigInt.asUintN(64, -8n).toString(16)}, 0x0, 0x0, 0x0`,
    );

    const overflow = await invoke(harness, programId, helloData(0, 0, 2, 2n ** 62n, 4n));
    expect(overflow.error).toMatch(/InstructionErrorCustom \{ code: 2 \}/);
    expect(overflow.logs).toContain("Program log: square");
  });
});

describe("build path independence", () => {
  it("given the same crate checked out at two different absolute paths, when built, then the bytes are identical", () => {
    const builds = ["a", join("deeper", "checkout", "b")].map((where) => {
      const root = join(tempDir(), where);
      const crateDir = join(root, "programs", "hello-sbf");
      mkdirSync(crateDir, { recursive: true });
      cpSync(HELLO_CRATE, crateDir, { recursive: true, filter: (src) => !src.includes(`${"/"}target`) });
      return buildProgram({
        crateDir,
        repoRoot: root,
        targetDir: join(root, "target", "sbf"),
        out: join(root, "out", "hello.so"),
      });
    });
    expect(builds[1]?.record.sha256).toBe(builds[0]?.record.sha256);
    expect(builds[1]?.record.sourceTree).toBe(builds[0]?.record.sourceTree);
  });
});
