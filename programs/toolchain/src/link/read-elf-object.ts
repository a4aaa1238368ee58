import {
  ELFCLASS64,
  ELFDATA2LSB,
  EM_BPF,
  ET_REL,
  SECTION_HEADER_SIZE,
  SHF_ALLOC,
  SHT_NOBITS,
  SHT_REL,
  SHT_RELA,
  SHT_SYMTAB,
  SYMBOL_SIZE,
} from "./elf-constants";
import { LinkError } from "./link-error";

export interface ElfSection {
  index: number;
  name: string;
  type: number;
  flags: number;
  size: number;
  link: number;
  info: number;
  addralign: number;
  entsize: number;
  /** File contents (empty for SHT_NOBITS, whose `size` is still meaningful). */
  data: Uint8Array;
}

export interface ElfSymbol {
  index: number;
  name: string;
  value: number;
  size: number;
  type: number;
  bind: number;
  /** Section index, or SHN_UNDEF / SHN_ABS / SHN_COMMON. */
  shndx: number;
}

export interface ElfRelocation {
  /** Offset within the section the relocation applies to. */
  offset: number;
  type: number;
  symbol: number;
}

/** What llc wrote: sections, the symbol table, and REL relocations keyed by target section. */
export interface RelocatableObject {
  sections: ElfSection[];
  symbols: ElfSymbol[];
  relocations: Map<number, ElfRelocation[]>;
}

/**
 * Parses a little-endian ELF64 relocatable object for EM_BPF (what `llc -march=bpfel
 * -filetype=obj` emits). Only what linking needs is read; anything that is not that kind of
 * file is rejected with the reason.
 */
export function readElfObject(bytes: Uint8Array): RelocatableObject {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string): never => {
    throw new LinkError(`not a BPF relocatable object: ${why}`);
  };
  if (bytes.length < 64 || view.getUint32(0, false) !== 0x7f454c46) fail("no ELF magic");
  if (bytes[4] !== ELFCLASS64) fail("not ELF64");
  if (bytes[5] !== ELFDATA2LSB) fail("not little-endian (use -march=bpfel)");
  if (view.getUint16(16, true) !== ET_REL) fail(`e_type ${view.getUint16(16, true)} is not ET_REL`);
  if (view.getUint16(18, true) !== EM_BPF) fail(`e_machine ${view.getUint16(18, true)} is not EM_BPF (247)`);

  const shoff = Number(view.getBigUint64(40, true));
  const shentsize = view.getUint16(58, true);
  const shnum = view.getUint16(60, true);
  const shstrndx = view.getUint16(62, true);
  if (shentsize !== SECTION_HEADER_SIZE) fail(`unexpected section header size ${shentsize}`);
  if (shoff + shnum * shentsize > bytes.length) fail("section headers out of bounds");

  const raw = Array.from({ length: shnum }, (_, index) => {
    const at = shoff + index * shentsize;
    const type = view.getUint32(at + 4, true);
    const offset = Number(view.getBigUint64(at + 24, true));
    const size = Number(view.getBigUint64(at + 32, true));
    if (type !== SHT_NOBITS && offset + size > bytes.length) fail(`section ${index} out of bounds`);
    return {
      index,
      nameOffset: view.getUint32(at, true),
      type,
      flags: Number(view.getBigUint64(at + 8, true)),
      size,
      link: view.getUint32(at + 40, true),
      info: view.getUint32(at + 44, true),
      addralign: Number(view.getBigUint64(at + 48, true)),
      entsize: Number(view.getBigUint64(at + 56, true)),
      data: type === SHT_NOBITS ? new Uint8Array(0) : bytes.subarray(offset, offset + size),
    };
  });
  const names = raw[shstrndx]?.data ?? fail("no section name table");
  const sections: ElfSection[] = raw.map(({ nameOffset, ...section }) => ({
    ...section,
    name: readString(names, nameOffset),
  }));

  const symtab = sections.find((s) => s.type === SHT_SYMTAB);
  const symbols: ElfSymbol[] = [];
  if (symtab) {
    const strings = sections[symtab.link]?.data ?? fail("symbol table without string table");
    const symView = new DataView(symtab.data.buffer, symtab.data.byteOffset, symtab.data.byteLength);
    for (let index = 0; index * SYMBOL_SIZE < symtab.data.length; index++) {
      const at = index * SYMBOL_SIZE;
      const info = symView.getUint8(at + 4);
      symbols.push({
        index,
        name: readString(strings, symView.getUint32(at, true)),
        type: info & 0xf,
        bind: info >> 4,
        shndx: symView.getUint16(at + 6, true),
        value: Number(symView.getBigUint64(at + 8, true)),
        size: Number(symView.getBigUint64(at + 16, true)),
      });
    }
  }

  const relocations = new Map<number, ElfRelocation[]>();
  for (const section of sections) {
    if (section.type === SHT_RELA) {
      const target = sections[section.info];
      if (target && target.flags & SHF_ALLOC)
        fail(`RELA relocations (${section.name}) are not produced by the BPF backend`);
      continue;
    }
    if (section.type !== SHT_REL) continue;
    const relView = new DataView(section.data.buffer, section.data.byteOffset, section.data.byteLength);
    const list: ElfRelocation[] = [];
    for (let at = 0; at + 16 <= section.data.length; at += 16) {
      const info = relView.getBigUint64(at + 8, true);
      list.push({
        offset: Number(relView.getBigUint64(at, true)),
        type: Number(info & 0xffffffffn),
        symbol: Number(info >> 32n),
      });
    }
    relocations.set(section.info, [...(relocations.get(section.info) ?? []), ...list]);
  }
  return { sections, symbols, relocations };
}

function readString(table: Uint8Array, offset: number): string {
  let end = offset;
  while (end < table.length && table[end] !== 0) end++;
  return new TextDecoder().decode(table.subarray(offset, end));
}
