import {
  DT_NULL,
  DT_REL,
  DT_RELENT,
  DT_RELSZ,
  DT_STRSZ,
  DT_STRTAB,
  DT_SYMENT,
  DT_SYMTAB,
  DYN_SIZE,
  ELF_HEADER_SIZE,
  ELFCLASS64,
  ELFDATA2LSB,
  EM_BPF,
  ET_DYN,
  EV_CURRENT,
  PF_R,
  PF_X,
  PROGRAM_HEADER_SIZE,
  PT_DYNAMIC,
  PT_LOAD,
  R_BPF_64_32,
  REL_SIZE,
  SECTION_HEADER_SIZE,
  SHF_ALLOC,
  SHF_EXECINSTR,
  SHT_DYNAMIC,
  SHT_DYNSYM,
  SHT_NULL,
  SHT_PROGBITS,
  SHT_REL,
  SHT_STRTAB,
  STB_GLOBAL,
  STT_FUNC,
  STT_NOTYPE,
  SYMBOL_SIZE,
} from "./elf-constants";
import { align, type Layout, PROGRAM_HEADER_COUNT } from "./layout";
import type { SyscallSite } from "./relocate";

export interface SharedObjectInput {
  layout: Layout;
  /** Virtual address of `entrypoint`. */
  entry: number;
  entrySize: number;
  syscalls: readonly SyscallSite[];
}

interface Section {
  name: string;
  type: number;
  flags: number;
  offset: number;
  size: number;
  link: number;
  info: number;
  align: number;
  entsize: number;
  alloc: boolean;
}

/**
 * Serialises the SBPF v0 shared object the Solana loader (solana-sbpf `elf.rs`, lenient parser)
 * accepts: ET_DYN, EM_BPF, e_flags 0 (= SBPF v0), every allocated section at virtual address ==
 * file offset, sections in ascending file order after the headers, section headers last.
 *
 *   ELF header | 4 program headers | .text | .rodata | .dynamic | .dynsym | .dynstr | .rel.dyn |
 *   .shstrtab | section headers
 *
 * Program headers: PT_LOAD R+X .text, PT_LOAD R .rodata, PT_LOAD R over the dynamic tables,
 * PT_DYNAMIC over .dynamic (the loader finds DT_REL/DT_SYMTAB through it).
 * `.dynsym` holds `entrypoint` and one undefined symbol per distinct syscall (sorted by name);
 * `.rel.dyn` one R_BPF_64_32 per syscall call site (sorted by address). No timestamps, no paths,
 * no hash-table order: the bytes are a pure function of the input.
 */
export function writeSharedObject(input: SharedObjectInput): Uint8Array {
  const { layout } = input;
  const syscallNames = [...new Set(input.syscalls.map((s) => s.name))].sort();
  const dynstr = new StringTable();
  const entryName = dynstr.add("entrypoint");
  const syscallNameOffsets = syscallNames.map((name) => dynstr.add(name));
  const symbolIndex = new Map(syscallNames.map((name, i) => [name, i + 2]));

  const shstrtab = new StringTable();
  const names = [".text", ".rodata", ".dynamic", ".dynsym", ".dynstr", ".rel.dyn", ".shstrtab"];
  const nameOffsets = new Map(names.map((name) => [name, shstrtab.add(name)]));

  const textOffset = layout.text.offset;
  const rodataOffset = layout.rodata.offset;
  const dynamicOffset = align(rodataOffset + layout.rodata.bytes.length, 8);
  const hasRelocations = input.syscalls.length > 0;
  const dynamicEntries = hasRelocations ? 8 : 5;
  const dynsymOffset = dynamicOffset + dynamicEntries * DYN_SIZE;
  const dynsymSize = (2 + syscallNames.length) * SYMBOL_SIZE;
  const dynstrOffset = dynsymOffset + dynsymSize;
  const dynstrBytes = dynstr.bytes();
  const relOffset = align(dynstrOffset + dynstrBytes.length, 8);
  const relSize = input.syscalls.length * REL_SIZE;
  const shstrtabOffset = relOffset + relSize;
  const shstrtabBytes = shstrtab.bytes();
  const sectionHeadersOffset = align(shstrtabOffset + shstrtabBytes.length, 8);

  const sections: Section[] = [
    {
      name: "",
      type: SHT_NULL,
      flags: 0,
      offset: 0,
      size: 0,
      link: 0,
      info: 0,
      align: 0,
      entsize: 0,
      alloc: false,
    },
    section(".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, textOffset, layout.text.bytes.length, 8),
    section(
      ".rodata",
      SHT_PROGBITS,
      SHF_ALLOC,
      rodataOffset,
      layout.rodata.bytes.length,
      layout.rodata.align,
    ),
    {
      ...section(".dynamic", SHT_DYNAMIC, SHF_ALLOC, dynamicOffset, dynamicEntries * DYN_SIZE, 8),
      link: 5,
      entsize: DYN_SIZE,
    },
    {
      ...section(".dynsym", SHT_DYNSYM, SHF_ALLOC, dynsymOffset, dynsymSize, 8),
      link: 5,
      info: 1,
      entsize: SYMBOL_SIZE,
    },
    section(".dynstr", SHT_STRTAB, SHF_ALLOC, dynstrOffset, dynstrBytes.length, 1),
    { ...section(".rel.dyn", SHT_REL, SHF_ALLOC, relOffset, relSize, 8), link: 4, entsize: REL_SIZE },
    { ...section(".shstrtab", SHT_STRTAB, 0, shstrtabOffset, shstrtabBytes.length, 1), alloc: false },
  ];

  const total = sectionHeadersOffset + sections.length * SECTION_HEADER_SIZE;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  const u16 = (at: number, v: number) => view.setUint16(at, v, true);
  const u32 = (at: number, v: number) => view.setUint32(at, v, true);
  const u64 = (at: number, v: number | bigint) => view.setBigUint64(at, BigInt(v), true);

  // ELF header
  out.set([0x7f, 0x45, 0x4c, 0x46, ELFCLASS64, ELFDATA2LSB, EV_CURRENT], 0);
  u16(16, ET_DYN);
  u16(18, EM_BPF);
  u32(20, EV_CURRENT);
  u64(24, input.entry);
  u64(32, ELF_HEADER_SIZE);
  u64(40, sectionHeadersOffset);
  u32(48, 0); // e_flags: SBPF v0
  u16(52, ELF_HEADER_SIZE);
  u16(54, PROGRAM_HEADER_SIZE);
  u16(56, PROGRAM_HEADER_COUNT);
  u16(58, SECTION_HEADER_SIZE);
  u16(60, sections.length);
  u16(62, sections.length - 1);

  // Program headers
  const dynamicEnd = relOffset + relSize;
  const programHeaders = [
    { type: PT_LOAD, flags: PF_R | PF_X, offset: textOffset, size: layout.text.bytes.length },
    { type: PT_LOAD, flags: PF_R, offset: rodataOffset, size: layout.rodata.bytes.length },
    { type: PT_LOAD, flags: PF_R, offset: dynamicOffset, size: dynamicEnd - dynamicOffset },
    { type: PT_DYNAMIC, flags: PF_R, offset: dynamicOffset, size: dynamicEntries * DYN_SIZE },
  ];
  programHeaders.forEach((ph, i) => {
    const at = ELF_HEADER_SIZE + i * PROGRAM_HEADER_SIZE;
    u32(at, ph.type);
    u32(at + 4, ph.flags);
    u64(at + 8, ph.offset);
    u64(at + 16, ph.offset); // p_vaddr
    u64(at + 24, ph.offset); // p_paddr
    u64(at + 32, ph.size); // p_filesz
    u64(at + 40, ph.size); // p_memsz
    u64(at + 48, 8);
  });

  out.set(layout.text.bytes, textOffset);
  out.set(layout.rodata.bytes, rodataOffset);

  // .dynamic
  const dynamic: [number, number][] = [
    [DT_SYMTAB, dynsymOffset],
    [DT_STRTAB, dynstrOffset],
    [DT_STRSZ, dynstrBytes.length],
    [DT_SYMENT, SYMBOL_SIZE],
  ];
  if (hasRelocations) dynamic.push([DT_REL, relOffset], [DT_RELSZ, relSize], [DT_RELENT, REL_SIZE]);
  dynamic.push([DT_NULL, 0]);
  dynamic.forEach(([tag, value], i) => {
    u64(dynamicOffset + i * DYN_SIZE, tag);
    u64(dynamicOffset + i * DYN_SIZE + 8, value);
  });

  // .dynsym: null, entrypoint, syscalls
  const symbol = (index: number, name: number, info: number, shndx: number, value: number, size: number) => {
    const at = dynsymOffset + index * SYMBOL_SIZE;
    u32(at, name);
    out[at + 4] = info;
    out[at + 5] = 0;
    u16(at + 6, shndx);
    u64(at + 8, value);
    u64(at + 16, size);
  };
  symbol(1, entryName, (STB_GLOBAL << 4) | STT_FUNC, 1, input.entry, input.entrySize);
  syscallNames.forEach((_, i) => {
    symbol(i + 2, syscallNameOffsets[i] as number, (STB_GLOBAL << 4) | STT_NOTYPE, 0, 0, 0);
  });

  out.set(dynstrBytes, dynstrOffset);

  input.syscalls.forEach((site, i) => {
    u64(relOffset + i * REL_SIZE, site.vaddr);
    u64(
      relOffset + i * REL_SIZE + 8,
      (BigInt(symbolIndex.get(site.name) as number) << 32n) | BigInt(R_BPF_64_32),
    );
  });

  out.set(shstrtabBytes, shstrtabOffset);

  sections.forEach((s, i) => {
    const at = sectionHeadersOffset + i * SECTION_HEADER_SIZE;
    u32(at, s.name ? (nameOffsets.get(s.name) as number) : 0);
    u32(at + 4, s.type);
    u64(at + 8, s.flags);
    u64(at + 16, s.alloc ? s.offset : 0);
    u64(at + 24, s.offset);
    u64(at + 32, s.size);
    u32(at + 40, s.link);
    u32(at + 44, s.info);
    u64(at + 48, s.align);
    u64(at + 56, s.entsize);
  });
  return out;
}

function section(
  name: string,
  type: number,
  flags: number,
  offset: number,
  size: number,
  alignment: number,
): Section {
  return { name, type, flags, offset, size, link: 0, info: 0, align: alignment, entsize: 0, alloc: true };
}

/** An ELF string table: NUL first, then each distinct string once, in insertion order. */
class StringTable {
  private readonly offsets = new Map<string, number>();
  private readonly chunks: Uint8Array[] = [new Uint8Array(1)];
  private length = 1;
  add(value: string): number {
    const known = this.offsets.get(value);
    if (known !== undefined) return known;
    const encoded = new TextEncoder().encode(`${value}\0`);
    const offset = this.length;
    this.offsets.set(value, offset);
    this.chunks.push(encoded);
    this.length += encoded.length;
    return offset;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}
