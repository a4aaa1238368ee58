import { beforeAll, describe, expect, it } from "vitest";
import { instructionData, LINK_FIXTURE, programWith } from "../testing/link-fixture";
import {
  addUnverified,
  createHarness,
  deployVerified,
  type Harness,
  invoke,
} from "../testing/litesvm-harness";
import { compileLl } from "../testing/llvm";
import { readSharedObject } from "../testing/read-shared-object";
import { OPCODE_CALLX } from "./elf-constants";
import { linkProgram } from "./index";

/**
 * The linker's output run by the real loader and VM (LiteSVM 1.5): relocated rodata loads,
 * function tables (ABS64 + callx), cross-section calls and syscalls must all work at run time,
 * both when loaded unverified (`addProgram`) and when deployed through the upgradeable loader,
 * which runs the ELF checks and the SBPF verifier.
 */
describe("linked programs in LiteSVM", () => {
  let harness: Harness;
  let so: Uint8Array;
  let rodata: { start: number; end: number };

  beforeAll(async () => {
    harness = await createHarness();
    so = linkProgram(compileLl(LINK_FIXTURE)).so;
    const section = readSharedObject(so).section(".rodata");
    rodata = { start: section.offset, end: section.offset + section.size };
  });

  const expectFixtureLogs = (logs: string[], r: bigint) => {
    const lines = logs.filter((l) => l.startsWith("Program log: "));
    expect(lines.slice(0, 2)).toEqual(["Program log: hello, rodata", "Program log: tail"]);
    const values = (lines[2] ?? "")
      .replace("Program log: ", "")
      .split(", ")
      .map((v) => BigInt(v));
    expect(values.slice(0, 3)).toEqual([r, r + 100n, r + 1000n]);
    // ABS32: a plain offset into the image, inside .rodata
    expect(Number(values[3])).toBeGreaterThanOrEqual(rodata.start);
    expect(Number(values[3])).toBeLessThan(rodata.end);
  };

  it("given the fixture deployed through the upgradeable loader (verified), when each function-table entry is called, then callx, rodata and cross-section calls work", async () => {
    const programId = await deployVerified(harness, so);

    for (const [op, x, r] of [
      [0, 5n, 8n],
      [1, 5n, 15n],
      [2, 5n, 1005n],
    ] as const) {
      const result = await invoke(harness, programId, instructionData(op, x));
      expect(result.error, result.logs.join("\n")).toBeUndefined();
      expectFixtureLogs(result.logs, r);
    }
  });

  it("given the fixture loaded with addProgram (unverified), when invoked, then it behaves the same", async () => {
    const programId = await addUnverified(harness, so);
    const result = await invoke(harness, programId, instructionData(1, 7n));
    expect(result.error, result.logs.join("\n")).toBeUndefined();
    expectFixtureLogs(result.logs, 21n);
  });

  it("given callx left in upstream encoding (control experiment), when invoked, then the VM rejects the indirect call", async () => {
    const broken = so.slice();
    const text = readSharedObject(broken).section(".text");
    const view = new DataView(broken.buffer);
    for (let at = text.offset; at < text.offset + text.size; at += 8) {
      if (broken[at] === 0x18) at += 8;
      else if (broken[at] === OPCODE_CALLX) {
        broken[at + 1] = view.getInt32(at + 4, true) & 0xf;
        view.setInt32(at + 4, 0, true);
      }
    }
    const programId = await addUnverified(harness, broken);

    const result = await invoke(harness, programId, instructionData(1, 7n));

    expect(result.ok).toBe(false);
    expect(result.logs.join("\n")).toContain("callx attempted to call outside of the text segment");
  });

  it("given a program with no rodata and no syscalls (no .rel.dyn entries, no DT_REL), when deployed verified, then it runs", async () => {
    const minimal = linkProgram(compileLl(programWith(""))).so;
    expect(readSharedObject(minimal).dynamicRelocations).toEqual([]);

    const result = await invoke(harness, await deployVerified(harness, minimal), new Uint8Array(0));

    expect(result.error, result.logs.join("\n")).toBeUndefined();
  });

  it("given a program calling a syscall under a misspelt name, when linked, then the build fails instead of deploying a program that dies at run time", () => {
    const ir = programWith("  call void @sol_log(ptr %input, i64 1)", "", "declare void @sol_log(ptr, i64)");
    expect(() => linkProgram(compileLl(ir))).toThrow(/`sol_log`/);
  });
});
