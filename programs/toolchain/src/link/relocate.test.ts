import { beforeAll, describe, expect, it } from "vitest";
import { LINK_FIXTURE } from "../testing/link-fixture";
import { compileLl } from "../testing/llvm";
import { MM_PROGRAM_START, OPCODE_CALL, OPCODE_LDDW, R_BPF_64_32 } from "./elf-constants";
import { type Layout, layoutSections } from "./layout";
import { type RelocatableObject, readElfObject } from "./read-elf-object";
import { applyRelocations, type SyscallSite } from "./relocate";

describe("applyRelocations", () => {
  let object: RelocatableObject;
  let layout: Layout;
  let sites: SyscallSite[];
  const addressOf = (name: string) => {
    const symbol = object.symbols.find((s) => s.name === name);
    if (!symbol) throw new Error(`no symbol ${name}`);
    return (layout.placements.get(symbol.shndx)?.vaddr ?? Number.NaN) + symbol.value;
  };
  const text = () =>
    new DataView(layout.text.bytes.buffer, layout.text.bytes.byteOffset, layout.text.bytes.byteLength);
  const rodataU64 = (vaddr: number) =>
    new DataView(layout.rodata.bytes.buffer, layout.rodata.bytes.byteOffset).getBigUint64(
      vaddr - layout.rodata.offset,
      true,
    );
  const lddwValues = () => {
    const values: bigint[] = [];
    for (let at = 0; at < layout.text.bytes.length; at += 8) {
      if (layout.text.bytes[at] !== OPCODE_LDDW) continue;
      values.push((BigInt(text().getUint32(at + 12, true)) << 32n) | BigInt(text().getUint32(at + 4, true)));
      at += 8;
    }
    return values;
  };
  const callTargets = () => {
    const targets: number[] = [];
    for (let at = 0; at < layout.text.bytes.length; at += 8) {
      if (layout.text.bytes[at] === OPCODE_LDDW) at += 8;
      else if (layout.text.bytes[at] === OPCODE_CALL && text().getInt32(at + 4, true) !== -1) {
        targets.push(layout.text.offset + at + 8 + text().getInt32(at + 4, true) * 8);
      }
    }
    return targets;
  };

  beforeAll(() => {
    object = readElfObject(compileLl(LINK_FIXTURE));
    layout = layoutSections(object);
    sites = applyRelocations(object, layout);
  });

  it("given the fixture object, then llc produced every relocation kind under test", () => {
    const types = new Set(
      [...object.relocations.entries()]
        .filter(([i]) => layout.placements.has(i))
        .flatMap(([, r]) => r.map((x) => x.type)),
    );
    expect([...types].sort((a, b) => a - b)).toEqual([1, 2, 3, 10]);
    expect(object.sections.map((s) => s.name)).toEqual(
      expect.arrayContaining([".text", ".text.far", ".rodata", ".data.rel.ro"]),
    );
  });

  it("R_BPF_64_64: lddw of rodata and of relocated tables holds 0x1_0000_0000 + vaddr", () => {
    const values = lddwValues();
    expect(values).toContain(MM_PROGRAM_START + BigInt(addressOf("greeting")));
    expect(values).toContain(MM_PROGRAM_START + BigInt(addressOf("tail_ptr")));
    expect(values).toContain(MM_PROGRAM_START + BigInt(addressOf("ops")));
  });

  it("R_BPF_64_32 to syscalls: imm stays -1 and each call site is reported for .rel.dyn", () => {
    expect(sites.map((s) => s.name)).toEqual(["sol_log_", "sol_log_", "sol_log_64_"]);
    for (const site of sites) {
      const at = site.vaddr - layout.text.offset;
      expect(layout.text.bytes[at]).toBe(OPCODE_CALL);
      expect(text().getInt32(at + 4, true)).toBe(-1);
    }
  });

  it("R_BPF_64_32 across text sections: global and section-relative targets become pc-relative calls", () => {
    const relocated = object.relocations.get(object.sections.findIndex((s) => s.name === ".text")) ?? [];
    const symbolName = (index: number) => {
      const symbol = object.symbols[index];
      return symbol?.name || object.sections[symbol?.shndx ?? 0]?.name;
    };
    expect(relocated.filter((r) => r.type === R_BPF_64_32).map((r) => symbolName(r.symbol))).toEqual(
      expect.arrayContaining(["far_global", ".text.far"]),
    );
    expect(callTargets()).toEqual(expect.arrayContaining([addressOf("far_global"), addressOf("far_local")]));
    expect(addressOf("far_local")).not.toBe(addressOf("far_global"));
  });

  it("R_BPF_64_ABS64 in rodata: function pointers and data pointers with addends are absolute SBPF addresses", () => {
    const ops = addressOf("ops");
    expect(rodataU64(ops)).toBe(MM_PROGRAM_START + BigInt(addressOf("add3")));
    expect(rodataU64(ops + 8)).toBe(MM_PROGRAM_START + BigInt(addressOf("mul3")));
    expect(rodataU64(ops + 16)).toBe(MM_PROGRAM_START + BigInt(addressOf("far_local")));
    expect(rodataU64(addressOf("tail_ptr"))).toBe(MM_PROGRAM_START + BigInt(addressOf("tail")) + 2n);
  });

  it("R_BPF_64_ABS32 in rodata: the 32-bit word holds the plain offset (no SBPF address fits)", () => {
    const at = addressOf("greeting_offset") - layout.rodata.offset;
    const word = new DataView(layout.rodata.bytes.buffer, layout.rodata.bytes.byteOffset).getUint32(at, true);
    expect(word).toBe(addressOf("greeting"));
  });
});
