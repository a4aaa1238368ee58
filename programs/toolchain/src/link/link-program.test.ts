import { beforeAll, describe, expect, it } from "vitest";
import { LINK_FIXTURE, programWith } from "../testing/link-fixture";
import { compileLl } from "../testing/llvm";
import { readSharedObject, type SharedObject } from "../testing/read-shared-object";
import {
  EM_BPF,
  ET_DYN,
  OPCODE_CALLX,
  PF_R,
  PF_X,
  PT_DYNAMIC,
  PT_LOAD,
  R_BPF_64_32,
  SHF_ALLOC,
  SHF_WRITE,
} from "./elf-constants";
import { type LinkResult, linkProgram } from "./index";
import { LinkError } from "./link-error";
import { readElfObject } from "./read-elf-object";

describe("linkProgram", () => {
  let object: Uint8Array;
  let linked: LinkResult;
  let so: SharedObject;

  beforeAll(() => {
    object = compileLl(LINK_FIXTURE);
    linked = linkProgram(object);
    so = readSharedObject(linked.so);
  });

  it("given a BPF object, when linked, then the output has the SBPF v0 shape the loader accepts", () => {
    expect({ type: so.type, machine: so.machine, flags: so.flags }).toEqual({
      type: ET_DYN,
      machine: EM_BPF,
      flags: 0,
    });
    expect(so.sections.map((s) => s.name)).toEqual([
      "",
      ".text",
      ".rodata",
      ".dynamic",
      ".dynsym",
      ".dynstr",
      ".rel.dyn",
      ".shstrtab",
    ]);
    for (const section of so.sections.filter((s) => s.flags & SHF_ALLOC)) {
      expect(section.addr, `${section.name} vaddr == file offset`).toBe(section.offset);
      expect(section.flags & SHF_WRITE, `${section.name} is read-only`).toBe(0);
    }
    expect(so.programHeaders.map((p) => [p.type, p.flags])).toEqual([
      [PT_LOAD, PF_R | PF_X],
      [PT_LOAD, PF_R],
      [PT_LOAD, PF_R],
      [PT_DYNAMIC, PF_R],
    ]);
    expect(so.programHeaders[0]).toMatchObject({
      offset: so.section(".text").offset,
      filesz: so.section(".text").size,
    });
    expect(so.entry).toBe(so.dynamicSymbols.find((s) => s.name === "entrypoint")?.value);
    expect(so.entry).toBeGreaterThanOrEqual(so.section(".text").offset);
  });

  it("given syscall calls, when linked, then each call site has an R_BPF_64_32 dynamic relocation against a .dynsym name and imm -1", () => {
    expect(so.dynamicRelocations.map((r) => [r.type, r.symbol])).toEqual([
      [R_BPF_64_32, "sol_log_"],
      [R_BPF_64_32, "sol_log_"],
      [R_BPF_64_32, "sol_log_64_"],
    ]);
    const text = so.section(".text");
    for (const relocation of so.dynamicRelocations) {
      const at = relocation.offset - text.offset;
      expect(new DataView(text.bytes.buffer, text.bytes.byteOffset).getInt32(at + 4, true)).toBe(-1);
    }
    expect(so.dynamicSymbols.map((s) => [s.name, s.shndx])).toEqual([
      ["", 0],
      ["entrypoint", 1],
      ["sol_log_", 0],
      ["sol_log_64_", 0],
    ]);
    expect(linked.syscalls).toEqual(["sol_log_", "sol_log_64_"]);
  });

  it("given upstream callx encoding (register in dst), when linked, then every callx carries its register in imm", () => {
    const source = readElfObject(object);
    const sourceText = source.sections.find((s) => s.name === ".text")?.data ?? new Uint8Array();
    const upstream = [...instructions(sourceText)].filter((i) => i.opcode === OPCODE_CALLX);
    const output = [...instructions(so.section(".text").bytes)].filter((i) => i.opcode === OPCODE_CALLX);

    expect(upstream.length).toBeGreaterThan(0);
    expect(upstream.every((i) => i.dst !== 0 && i.imm === 0)).toBe(true);
    expect(output.map((i) => ({ dst: i.dst, imm: i.imm }))).toEqual(
      upstream.map((i) => ({ dst: 0, imm: i.dst })),
    );
    expect(linked.callxRewritten).toBe(upstream.length);
  });

  it("given the same object twice, when linked, then the bytes are identical", () => {
    expect(Buffer.from(linkProgram(compileLl(LINK_FIXTURE)).so).equals(Buffer.from(linked.so))).toBe(true);
  });

  it("given a mutable global (.bss), when linked, then it is refused naming the section and the symbol", () => {
    const ir = programWith(
      "  %v = load i64, ptr @counter\n  %n = add i64 %v, 1\n  store i64 %n, ptr @counter",
      "@counter = internal global i64 0, align 8",
    );
    expect(() => linkProgram(compileLl(ir))).toThrow(
      /writable global data[\s\S]*\.bss \(8 bytes, writable\): holds `counter`/,
    );
  });

  it("given an initialised mutable global (.data), when linked, then it is refused too", () => {
    const ir = programWith("  store i64 9, ptr @state", "@state = global i64 5, align 8");
    expect(() => linkProgram(compileLl(ir))).toThrow(/\.data \(8 bytes, writable\): holds `state`/);
  });

  it("given a call to an undefined symbol that is not a syscall, when linked, then it fails naming the symbol and its caller", () => {
    const ir = programWith(
      "  call void @sol_log_typo(ptr %input, i64 1)",
      "",
      "declare void @sol_log_typo(ptr, i64)",
    );
    expect(() => linkProgram(compileLl(ir))).toThrow(LinkError);
    expect(() => linkProgram(compileLl(ir))).toThrow(/`sol_log_typo`\n\s+called from `entrypoint`/);
  });

  it("given a retired syscall, when linked, then the error says why it cannot be used", () => {
    const ir = programWith(
      "  %p = call ptr @sol_alloc_free_(i64 8, ptr null)",
      "",
      "declare ptr @sol_alloc_free_(i64, ptr)",
    );
    expect(() => linkProgram(compileLl(ir))).toThrow(/`sol_alloc_free_` — not registered for deployment/);
  });

  it("given the address of a syscall taken as data, when linked, then it fails (syscalls can only be called)", () => {
    const ir = programWith(
      "  %f = load ptr, ptr @fp\n  call void %f(ptr %input, i64 1)",
      "@fp = internal constant ptr @sol_log_, align 8",
      "declare void @sol_log_(ptr, i64)",
    );
    expect(() => linkProgram(compileLl(ir))).toThrow(/takes the address of the undefined symbol `sol_log_`/);
  });

  it("given an object without entrypoint, when linked, then it fails saying so", () => {
    const ir = programWith("").replace("@entrypoint", "@main");
    expect(() => linkProgram(compileLl(ir))).toThrow(/no `entrypoint` function/);
  });
});

function* instructions(text: Uint8Array) {
  const view = new DataView(text.buffer, text.byteOffset, text.byteLength);
  for (let at = 0; at < text.length; at += 8) {
    const opcode = text[at] as number;
    yield { opcode, dst: (text[at + 1] as number) & 0xf, imm: view.getInt32(at + 4, true) };
    if (opcode === 0x18) at += 8;
  }
}
